import type { PaymentEvent } from '../../providers/payments/payment-provider.ts';
import type { Tier } from '../../platform/security/tokens.ts';
import type { SubscriptionRow, SubscriptionStatus } from './tables.ts';
import type { SubscriptionState } from './repository.ts';

/**
 * Reads provider events (Stripe's object shapes, old and new API versions) into the changes billing
 * applies, and decides the next stored state. Pure: no I/O, so every rule is testable on its own.
 */
export interface PriceIds {
  pro: string | undefined;
  family: string | undefined;
}

export interface SubscriptionChange {
  kind: 'subscription';
  subscriptionId: string;
  customerId: string | null;
  /** `metadata.user_id` as sent (checked by the caller). */
  userIdHint: string | null;
  /** The purchased tier; null when neither the price nor the metadata names one. */
  tier: Exclude<Tier, 'free'> | null;
  status: SubscriptionStatus;
  /** Whether the provider status gives access to the paid tier. */
  grantsTier: boolean;
  validUntil: Date | null;
  cancelAtPeriodEnd: boolean;
}

export interface PaymentFailed {
  kind: 'payment_failed';
  subscriptionId: string | null;
  customerId: string | null;
}

export type BillingChange = SubscriptionChange | PaymentFailed;

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
const asString = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
/** Expandable references arrive as an id string or as the expanded object. */
const idOf = (v: unknown): string | null => asString(v) ?? asString(asObj(v)?.id);

/**
 * Provider status → ours. `incomplete` (first payment not made yet) and `paused` give no access;
 * `unpaid` (retries exhausted) shows as past_due without access.
 */
const STATUS: Record<string, { status: SubscriptionStatus; grants: boolean }> = {
  active: { status: 'active', grants: true },
  trialing: { status: 'trialing', grants: true },
  past_due: { status: 'past_due', grants: true },
  unpaid: { status: 'past_due', grants: false },
  incomplete: { status: 'past_due', grants: false },
  paused: { status: 'past_due', grants: false },
  canceled: { status: 'cancelled', grants: false },
  incomplete_expired: { status: 'cancelled', grants: false },
};

function items(subscription: Obj): Obj[] {
  const data = asObj(subscription.items)?.data;
  return Array.isArray(data) ? data.map(asObj).filter((i): i is Obj => i !== undefined) : [];
}

function tierOf(subscription: Obj, prices: PriceIds): Exclude<Tier, 'free'> | null {
  for (const item of items(subscription)) {
    const priceId = idOf(item.price) ?? idOf(item.plan);
    if (priceId && priceId === prices.pro) return 'pro';
    if (priceId && priceId === prices.family) return 'family';
  }
  const fromMetadata = asObj(subscription.metadata)?.tier;
  return fromMetadata === 'pro' || fromMetadata === 'family' ? fromMetadata : null;
}

/** Newer API versions moved the period end from the subscription onto its items. */
function periodEnd(subscription: Obj): Date | null {
  const seconds = subscription.current_period_end ?? items(subscription)[0]?.current_period_end;
  return typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000) : null;
}

/** Older API versions name the subscription on the invoice; newer ones under parent.subscription_details. */
function invoiceSubscription(invoice: Obj): string | null {
  const details = asObj(asObj(invoice.parent)?.subscription_details);
  return idOf(invoice.subscription) ?? idOf(details?.subscription);
}

export function interpret(event: PaymentEvent, prices: PriceIds): BillingChange | undefined {
  const object = event.object;
  switch (event.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscriptionId = asString(object.id);
      if (!subscriptionId) return undefined;
      const deleted = event.type === 'customer.subscription.deleted';
      const mapped = STATUS[String(object.status)] ?? { status: 'past_due' as const, grants: false };
      return {
        kind: 'subscription',
        subscriptionId,
        customerId: idOf(object.customer),
        userIdHint: asString(asObj(object.metadata)?.user_id),
        tier: tierOf(object, prices),
        status: deleted ? 'cancelled' : mapped.status,
        grantsTier: deleted ? false : mapped.grants,
        validUntil: periodEnd(object),
        cancelAtPeriodEnd: deleted ? false : object.cancel_at_period_end === true,
      };
    }
    case 'invoice.payment_failed':
      return {
        kind: 'payment_failed',
        subscriptionId: invoiceSubscription(object),
        customerId: idOf(object.customer),
      };
    default:
      return undefined;
  }
}

/** An event created before the last one applied to this row is stale. Same second: applied. */
export function isStale(row: SubscriptionRow, eventCreated: number): boolean {
  return row.last_event_created !== null && eventCreated < row.last_event_created;
}

/**
 * The row after a subscription event, or undefined when it changes nothing: a stale event, or the
 * end of some other subscription while the user's current one is still live.
 */
export function nextSubscriptionState(
  row: SubscriptionRow,
  change: SubscriptionChange,
  eventCreated: number,
): Partial<SubscriptionState> | undefined {
  if (isStale(row, eventCreated)) return undefined;
  const otherSubscription =
    row.stripe_subscription_id !== null && row.stripe_subscription_id !== change.subscriptionId;
  if (otherSubscription && row.status !== 'cancelled' && change.status === 'cancelled') return undefined;
  const sameSubscription = row.stripe_subscription_id === change.subscriptionId;
  // An unnamed price keeps the tier already granted for this subscription.
  const paidTier = change.tier ?? (sameSubscription && row.tier !== 'free' ? row.tier : null);
  return {
    stripe_subscription_id: change.subscriptionId,
    stripe_customer_id: row.stripe_customer_id ?? change.customerId,
    tier: change.grantsTier && paidTier ? paidTier : 'free',
    status: change.status,
    valid_until: change.validUntil,
    cancel_at_period_end: change.cancelAtPeriodEnd,
    last_event_created: eventCreated,
  };
}

/**
 * invoice.payment_failed: past_due, tier kept while the provider retries. A cancelled row, a row
 * without a subscription, or an invoice of another subscription changes nothing.
 */
export function nextAfterPaymentFailure(
  row: SubscriptionRow,
  change: PaymentFailed,
  eventCreated: number,
): Partial<SubscriptionState> | undefined {
  if (isStale(row, eventCreated) || row.status === 'cancelled' || !row.stripe_subscription_id)
    return undefined;
  if (change.subscriptionId && change.subscriptionId !== row.stripe_subscription_id) return undefined;
  return { status: 'past_due', last_event_created: eventCreated };
}
