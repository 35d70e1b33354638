import { z } from 'zod';

export const SubscriptionSchema = z
  .object({
    tier: z.enum(['free', 'pro', 'family']),
    status: z.enum(['active', 'cancelled', 'past_due', 'trialing']),
    stripe_subscription_id: z.string().nullable(),
    valid_until: z.string().nullable(),
    cancel_at_period_end: z.boolean(),
  })
  .meta({ id: 'Subscription' });

/** Redirect targets are absolute http(s) URLs (contract §10). */
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);

export const CheckoutBody = z.object({
  tier: z.enum(['pro', 'family']),
  success_url: httpUrl,
  cancel_url: httpUrl,
});
export const CheckoutResponse = z.object({ checkout_url: z.string() });

export const PortalBody = z.object({ return_url: httpUrl });
export const PortalResponse = z.object({ portal_url: z.string() });

export const WebhookResponse = z.object({ received: z.literal(true) });
