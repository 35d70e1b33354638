import type { z } from 'zod';
import type { SubscriptionSchema } from './schemas.ts';
import type { Subscription } from './service.ts';

export function presentSubscription(s: Subscription): z.infer<typeof SubscriptionSchema> {
  return {
    tier: s.tier,
    status: s.status,
    stripe_subscription_id: s.stripeSubscriptionId,
    valid_until: s.validUntil ? s.validUntil.toISOString() : null,
    cancel_at_period_end: s.cancelAtPeriodEnd,
  };
}
