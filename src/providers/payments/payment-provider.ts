/**
 * What the billing module needs from a payment provider, in our own terms. The Stripe
 * implementation (stripe-provider.ts) is the only code that imports the provider's SDK.
 */
export type PaidTier = 'pro' | 'family';

export interface CheckoutRequest {
  customerId: string;
  priceId: string;
  userId: string;
  tier: PaidTier;
  successUrl: string;
  cancelUrl: string;
}

/** A verified provider event, reduced to the fields billing reads. */
export interface PaymentEvent {
  id: string;
  type: string;
  /** Unix seconds when the provider created the event (orders deliveries). */
  created: number;
  /** `data.object` as the provider sent it. */
  object: Record<string, unknown>;
}

export interface PaymentProvider {
  /** Creates the provider-side customer that carries our user id in its metadata. */
  createCustomer(input: { userId: string; email: string }): Promise<string>;
  /** Answers the hosted checkout page URL of a subscription checkout. */
  createCheckoutSession(input: CheckoutRequest): Promise<string>;
  /** Answers the hosted customer-portal URL. */
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<string>;
}

export interface WebhookVerifier {
  /** Verifies the signature header over the raw body; throws invalidSignature otherwise. */
  verify(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent;
}
