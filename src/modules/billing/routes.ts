import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { callerOf } from '../../platform/http/auth.ts';
import { presentSubscription } from './presenter.ts';
import {
  CheckoutBody,
  CheckoutResponse,
  PortalBody,
  PortalResponse,
  SubscriptionSchema,
  WebhookResponse,
} from './schemas.ts';
import type { BillingService } from './service.ts';

export interface BillingRouteOptions {
  billing: BillingService;
  /** The webhook's own per-client limit (generous: the provider retries in bursts). */
  webhookRateLimit: { max: number; timeWindow: string };
}

export async function billingRoutes(app: FastifyInstance, options: BillingRouteOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { billing } = options;

  r.get('/api/subscription', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['subscription'],
      summary: 'The caller’s subscription (free/active with null fields when they never paid)',
      response: { 200: SubscriptionSchema },
    },
    handler: async (request) => presentSubscription(await billing.getSubscription(callerOf(request))),
  });

  r.post('/api/subscription/checkout', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['subscription'],
      summary: 'Start a hosted checkout for pro or family',
      description:
        '409 conflict when a subscription is still running (change plans in the portal); ' +
        '503 not_configured without STRIPE_SECRET_KEY or the tier’s PRICE_ID_*.',
      body: CheckoutBody,
      response: { 200: CheckoutResponse },
    },
    handler: async (request) => ({
      checkout_url: await billing.startCheckout(callerOf(request), {
        tier: request.body.tier,
        successUrl: request.body.success_url,
        cancelUrl: request.body.cancel_url,
      }),
    }),
  });

  r.post('/api/subscription/portal', {
    config: { auth: 'bearer', tier: 'pro' },
    schema: {
      tags: ['subscription'],
      summary: 'Open the hosted customer portal (Pro or Family)',
      description: '409 conflict when the user has no billing account yet (never started a checkout).',
      body: PortalBody,
      response: { 200: PortalResponse },
    },
    handler: async (request) => ({
      portal_url: await billing.openPortal(callerOf(request), request.body.return_url),
    }),
  });

  // The signature covers the exact bytes sent, so this route keeps the raw body (any content type).
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.withTypeProvider<ZodTypeProvider>().post('/api/subscription/webhook', {
      config: { auth: 'none', rateLimit: options.webhookRateLimit },
      schema: {
        tags: ['subscription'],
        summary: 'Payment provider events, signed in the Payment-Signature (or Stripe-Signature) header',
        description:
          'Verified with PAYMENT_WEBHOOK_SECRET (t=…,v1=HMAC-SHA256 of "t.body", 5-minute tolerance). ' +
          'Each event id is applied once; re-deliveries and unhandled types answer {received:true}.',
        response: { 200: WebhookResponse },
      },
      handler: async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        // Stripe signs in its own header; a proxy (or the contract's clients) may name it Payment-Signature.
        const header = request.headers['payment-signature'] ?? request.headers['stripe-signature'];
        await billing.handleWebhook(raw, Array.isArray(header) ? header[0] : header);
        return { received: true as const };
      },
    });
  });
}
