import { describe, expect, it } from 'vitest';
import {
  interpret,
  nextAfterPaymentFailure,
  nextSubscriptionState,
  type SubscriptionChange,
} from './events.ts';
import type { SubscriptionRow } from './tables.ts';

/** The event rules on their own (the webhook tests drive the same rules over HTTP). */
const prices = { pro: 'price_pro', family: 'price_family' };
const event = (type: string, object: Record<string, unknown>, created = 1000) => ({
  id: 'evt_1',
  type,
  created,
  object,
});
const row = (overrides: Partial<SubscriptionRow> = {}): SubscriptionRow => ({
  user_id: 'u1',
  stripe_customer_id: 'cus_1',
  stripe_subscription_id: 'sub_1',
  tier: 'pro',
  status: 'active',
  valid_until: null,
  cancel_at_period_end: false,
  last_event_created: 1000,
  updated_at: new Date(),
  ...overrides,
});

describe('interpret', () => {
  it.each([
    ['active', 'active', true],
    ['trialing', 'trialing', true],
    ['past_due', 'past_due', true],
    ['unpaid', 'past_due', false],
    ['incomplete', 'past_due', false],
    ['paused', 'past_due', false],
    ['canceled', 'cancelled', false],
    ['incomplete_expired', 'cancelled', false],
  ])('maps provider status %s to %s (paid tier: %s)', (status, expected, grants) => {
    const change = interpret(event('customer.subscription.updated', { id: 'sub_1', status }), prices);
    expect(change).toMatchObject({ kind: 'subscription', status: expected, grantsTier: grants });
  });

  it('prefers the price id over metadata.tier and reads expanded references', () => {
    const change = interpret(
      event('customer.subscription.created', {
        id: 'sub_1',
        status: 'active',
        customer: { id: 'cus_9', object: 'customer' },
        metadata: { tier: 'pro', user_id: 'u9' },
        items: { data: [{ price: { id: 'price_family' }, current_period_end: 2000 }] },
      }),
      prices,
    );
    expect(change).toMatchObject({
      tier: 'family',
      customerId: 'cus_9',
      userIdHint: 'u9',
      validUntil: new Date(2_000_000),
    });
  });

  it('reads the invoice’s subscription in both API shapes and ignores other types', () => {
    expect(
      interpret(event('invoice.payment_failed', { subscription: 'sub_old', customer: 'c' }), prices),
    ).toEqual({
      kind: 'payment_failed',
      subscriptionId: 'sub_old',
      customerId: 'c',
    });
    const parent = { parent: { subscription_details: { subscription: 'sub_new' } } };
    expect(interpret(event('invoice.payment_failed', parent), prices)).toMatchObject({
      subscriptionId: 'sub_new',
    });
    expect(interpret(event('charge.succeeded', {}), prices)).toBeUndefined();
  });
});

describe('next state', () => {
  const change = (overrides: Partial<SubscriptionChange> = {}): SubscriptionChange => ({
    kind: 'subscription',
    subscriptionId: 'sub_1',
    customerId: 'cus_1',
    userIdHint: null,
    tier: 'family',
    status: 'active',
    grantsTier: true,
    validUntil: null,
    cancelAtPeriodEnd: false,
    ...overrides,
  });

  it('ignores stale events and applies the same second', () => {
    expect(nextSubscriptionState(row(), change(), 999)).toBeUndefined();
    expect(nextSubscriptionState(row(), change(), 1000)).toMatchObject({
      tier: 'family',
      last_event_created: 1000,
    });
  });

  it('keeps the granted tier when the price is unknown, and gives free without access', () => {
    expect(nextSubscriptionState(row(), change({ tier: null }), 1001)).toMatchObject({ tier: 'pro' });
    expect(
      nextSubscriptionState(row(), change({ grantsTier: false, status: 'past_due' }), 1001),
    ).toMatchObject({
      tier: 'free',
    });
  });

  it('does not let another subscription’s end cancel the running one', () => {
    const ended = change({ subscriptionId: 'sub_0', status: 'cancelled', grantsTier: false });
    expect(nextSubscriptionState(row(), ended, 1001)).toBeUndefined();
  });

  it('marks past_due only for the stored, running subscription', () => {
    const failed = { kind: 'payment_failed' as const, subscriptionId: 'sub_1', customerId: null };
    expect(nextAfterPaymentFailure(row(), failed, 1001)).toEqual({
      status: 'past_due',
      last_event_created: 1001,
    });
    expect(nextAfterPaymentFailure(row({ status: 'cancelled' }), failed, 1001)).toBeUndefined();
    expect(nextAfterPaymentFailure(row(), { ...failed, subscriptionId: 'sub_2' }, 1001)).toBeUndefined();
    expect(nextAfterPaymentFailure(row(), failed, 999)).toBeUndefined();
  });
});
