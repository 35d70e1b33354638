import type { Config } from '../../platform/config.ts';
import type { PaymentProvider, WebhookVerifier } from './payment-provider.ts';
import { StripePaymentProvider, StripeWebhookVerifier } from './stripe-provider.ts';

export type * from './payment-provider.ts';

/** The configured provider, or undefined (payments answer 503 not_configured) without a key. */
export function createPaymentProvider(settings: Config['stripe']): PaymentProvider | undefined {
  if (!settings.secretKey) return undefined;
  return new StripePaymentProvider({
    secretKey: settings.secretKey,
    apiBase: settings.apiBase,
    timeoutMs: settings.timeoutMs,
  });
}

export function createWebhookVerifier(settings: Config['stripe']): WebhookVerifier | undefined {
  return settings.webhookSecret ? new StripeWebhookVerifier(settings.webhookSecret) : undefined;
}
