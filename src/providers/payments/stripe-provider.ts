import Stripe from 'stripe';
import {
  AppError,
  invalidSignature,
  upstreamError,
  upstreamTimeout,
  validationError,
} from '../../platform/errors.ts';
import type { CheckoutRequest, PaymentEvent, PaymentProvider, WebhookVerifier } from './payment-provider.ts';

const SERVICE = 'payment provider';
/** Contract §10: a signature older than five minutes is refused. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface StripeSettings {
  secretKey: string;
  /** Overrides scheme, host and port of the API (a loopback fake in tests); a path is ignored. */
  apiBase: string | undefined;
  timeoutMs: number;
}

function connectionOptions(apiBase: string | undefined) {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? ('http' as const) : ('https' as const);
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

/** Stripe's failures become our 502/504; a bug of ours (invalid request) is still an upstream 502. */
function translate(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof Stripe.errors.StripeConnectionError) {
    const code = (error.detail as { code?: unknown } | undefined)?.code;
    if (code === 'ETIMEDOUT' || /timeout/i.test(error.message)) return upstreamTimeout(SERVICE);
    return upstreamError(SERVICE, 'The payment provider could not be reached.');
  }
  if (error instanceof Stripe.errors.StripeError) {
    return upstreamError(
      SERVICE,
      'The payment provider refused the request.',
      `${error.type}: ${error.message}`,
    );
  }
  return upstreamError(SERVICE);
}

export class StripePaymentProvider implements PaymentProvider {
  readonly #stripe: Stripe;

  constructor(settings: StripeSettings) {
    this.#stripe = new Stripe(settings.secretKey, {
      timeout: settings.timeoutMs,
      // Retries multiply the caller's wait; the client can retry the whole request instead.
      maxNetworkRetries: 0,
      telemetry: false,
      ...connectionOptions(settings.apiBase),
    });
  }

  async createCustomer(input: { userId: string; email: string }): Promise<string> {
    try {
      const customer = await this.#stripe.customers.create(
        { email: input.email, metadata: { user_id: input.userId } },
        // One customer per user even when two checkouts race or a request is retried.
        { idempotencyKey: `customer-${input.userId}` },
      );
      return customer.id;
    } catch (error) {
      throw translate(error);
    }
  }

  async createCheckoutSession(input: CheckoutRequest): Promise<string> {
    try {
      const session = await this.#stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: input.customerId,
        line_items: [{ price: input.priceId, quantity: 1 }],
        client_reference_id: input.userId,
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata: { user_id: input.userId, tier: input.tier },
        subscription_data: { metadata: { user_id: input.userId, tier: input.tier } },
      });
      if (!session.url) throw upstreamError(SERVICE, 'The checkout session has no URL.');
      return session.url;
    } catch (error) {
      throw translate(error);
    }
  }

  async createPortalSession(input: { customerId: string; returnUrl: string }): Promise<string> {
    try {
      const session = await this.#stripe.billingPortal.sessions.create({
        customer: input.customerId,
        return_url: input.returnUrl,
      });
      return session.url;
    } catch (error) {
      throw translate(error);
    }
  }
}

/** Verifies `Payment-Signature` with Stripe's scheme (t=…,v1=HMAC-SHA256 of "t.body"). */
export class StripeWebhookVerifier implements WebhookVerifier {
  readonly #secret: string;
  constructor(secret: string) {
    this.#secret = secret;
  }

  verify(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent {
    if (!signatureHeader) throw invalidSignature('The Payment-Signature header is missing.');
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(
        rawBody,
        signatureHeader,
        this.#secret,
        SIGNATURE_TOLERANCE_SECONDS,
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : 'invalid';
      throw invalidSignature(`The Payment-Signature header does not verify: ${reason}`);
    }
    return toPaymentEvent(event as unknown);
  }
}

/** A correctly signed body that is not an event envelope is a malformed delivery. */
function toPaymentEvent(raw: unknown): PaymentEvent {
  const e = raw as { id?: unknown; type?: unknown; created?: unknown; data?: { object?: unknown } };
  if (
    typeof e?.id !== 'string' ||
    typeof e.type !== 'string' ||
    typeof e.created !== 'number' ||
    typeof e.data?.object !== 'object' ||
    e.data.object === null
  ) {
    throw validationError(
      'The payload is not a provider event: id, type, created and data.object are required.',
      [{ field: 'body', message: 'not a provider event (id, type, created, data.object)' }],
    );
  }
  return { id: e.id, type: e.type, created: e.created, object: e.data.object as Record<string, unknown> };
}
