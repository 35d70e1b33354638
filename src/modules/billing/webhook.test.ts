import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';
import {
  eventEnvelope,
  FIXTURES_MISSING_MESSAGE,
  invoiceObject,
  signPayload,
  stripeFixtures,
  subscriptionObject,
  type SubscriptionOptions,
} from '../../../test/support/stripe-fake.ts';
import { BillingRepository } from './repository.ts';

const SECRET = 'whsec_webhook_test_secret';
const PRICE_PRO = 'price_pro_wh';
const PRICE_FAMILY = 'price_family_wh';

let ctx: TestApp;
let api: Api;

beforeAll(async () => {
  ctx = await startTestApp({
    PAYMENT_WEBHOOK_SECRET: SECRET,
    PRICE_ID_PRO: PRICE_PRO,
    PRICE_ID_FAMILY: PRICE_FAMILY,
  });
  api = client(ctx.baseUrl);
});
afterAll(() => ctx.close());

const nowSeconds = () => Math.floor(Date.now() / 1000);
const unique = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

function post(body: string, signature: string | undefined) {
  return api('POST', '/api/subscription/webhook', {
    rawBody: body,
    headers: { 'content-type': 'application/json', ...(signature ? { 'payment-signature': signature } : {}) },
  });
}
const deliver = (event: unknown) => {
  const body = JSON.stringify(event);
  return post(body, signPayload(body, SECRET));
};

/** A user with a subscription id and customer id of their own. */
async function subscriber(): Promise<TestUser & { sub: (o?: Partial<SubscriptionOptions>) => object }> {
  const user = await createUser(ctx);
  const id = unique('sub');
  const customer = unique('cus');
  return {
    ...user,
    sub: (o = {}) =>
      subscriptionObject({ id, customer, priceId: PRICE_PRO, metadata: { user_id: user.user.id }, ...o }),
  };
}

const subscriptionOf = async (token: string) => (await api('GET', '/api/subscription', { token })).body;
const tierOf = async (token: string) => (await api('GET', '/api/me', { token })).body.tier;

describe('signature (Payment-Signature, contract §10)', () => {
  it('accepts a correctly signed event and answers {received:true}', async () => {
    const u = await subscriber();
    const res = await deliver(eventEnvelope('customer.subscription.created', u.sub()));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    expect(await tierOf(u.token)).toBe('pro');
  });

  it('refuses a missing header, a tampered body, a wrong secret and a stale timestamp', async () => {
    const u = await subscriber();
    const body = JSON.stringify(eventEnvelope('customer.subscription.created', u.sub()));
    expectProblem(await post(body, undefined), 400, 'invalid_signature');
    expectProblem(
      await post(body.replace(PRICE_PRO, PRICE_FAMILY), signPayload(body, SECRET)),
      400,
      'invalid_signature',
    );
    expectProblem(await post(body, signPayload(body, 'whsec_someone_else')), 400, 'invalid_signature');
    expectProblem(await post(body, signPayload(body, SECRET, nowSeconds() - 301)), 400, 'invalid_signature');
    expectProblem(await post(body, 'garbage'), 400, 'invalid_signature');
    expect(await tierOf(u.token)).toBe('free');
    // The same body, correctly signed four minutes ago, is still accepted.
    expect((await post(body, signPayload(body, SECRET, nowSeconds() - 240))).status).toBe(200);
    expect(await tierOf(u.token)).toBe('pro');
  });

  it('accepts Stripe’s own Stripe-Signature header as a real delivery sends it', async () => {
    const u = await subscriber();
    const body = JSON.stringify(eventEnvelope('customer.subscription.created', u.sub()));
    const stripeHeader = (signature: string) =>
      api('POST', '/api/subscription/webhook', {
        rawBody: body,
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      });
    expectProblem(await stripeHeader(signPayload(body, 'whsec_someone_else')), 400, 'invalid_signature');
    expect(await tierOf(u.token)).toBe('free');
    const res = await stripeHeader(signPayload(body, SECRET));
    expect(res.status).toBe(200);
    expect(await tierOf(u.token)).toBe('pro');
  });

  it('answers 200 for event types it does not handle', async () => {
    const res = await deliver(
      eventEnvelope('checkout.session.completed', { id: 'cs_x', object: 'checkout.session' }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
  });

  it('answers 400 validation_error for a signed body that is not an event', async () => {
    const body = JSON.stringify({ hello: 'world' });
    const problem = expectProblem(await post(body, signPayload(body, SECRET)), 400, 'validation_error');
    expect(problem.errors).toEqual([{ field: 'body', message: expect.stringMatching(/provider event/) }]);
  });
});

describe('idempotency and ordering', () => {
  it('applies ten identical simultaneous deliveries once', async () => {
    const u = await subscriber();
    const event = eventEnvelope('customer.subscription.created', u.sub({ priceId: PRICE_FAMILY }));
    const results = await Promise.all(Array.from({ length: 10 }, () => deliver(event)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const processed = await ctx.database.db
      .selectFrom('processed_events')
      .select('event_id')
      .where('event_id', '=', event.id)
      .execute();
    expect(processed).toHaveLength(1);
    expect(await tierOf(u.token)).toBe('family');
  });

  it('never re-applies a replayed event, even one from the same second as the latest', async () => {
    const u = await subscriber();
    const t = nowSeconds();
    const failing = eventEnvelope('customer.subscription.updated', u.sub({ status: 'past_due' }), {
      created: t,
    });
    const recovered = eventEnvelope('customer.subscription.updated', u.sub({ status: 'active' }), {
      created: t,
    });
    await deliver(failing);
    await deliver(recovered);
    // Had the replay been applied again (same `created`, so not stale), the status would be past_due.
    const replays = await Promise.all(Array.from({ length: 5 }, () => deliver(failing)));
    expect(replays.every((r) => r.status === 200 && r.body.received === true)).toBe(true);
    expect(await subscriptionOf(u.token)).toMatchObject({ status: 'active', tier: 'pro' });
  });

  it('ignores an event older than the last one applied to the subscription', async () => {
    const u = await subscriber();
    const t = nowSeconds();
    await deliver(
      eventEnvelope('customer.subscription.updated', u.sub({ priceId: PRICE_FAMILY }), { created: t }),
    );
    const older = await deliver(
      eventEnvelope('customer.subscription.updated', u.sub({ priceId: PRICE_PRO, cancelAtPeriodEnd: true }), {
        created: t - 60,
      }),
    );
    expect(older.status).toBe(200);
    expect(await subscriptionOf(u.token)).toMatchObject({ tier: 'family', cancel_at_period_end: false });
    expect(await tierOf(u.token)).toBe('family');
    // A late `created` after a deletion does not resurrect the tier.
    await deliver(
      eventEnvelope('customer.subscription.deleted', u.sub({ status: 'canceled' }), { created: t + 5 }),
    );
    await deliver(eventEnvelope('customer.subscription.created', u.sub(), { created: t - 120 }));
    expect(await tierOf(u.token)).toBe('free');
    expect(await subscriptionOf(u.token)).toMatchObject({ status: 'cancelled', tier: 'free' });
  });
});

describe('event effects', () => {
  it('takes the tier from the price id first, else from metadata.tier', async () => {
    const a = await subscriber();
    await deliver(
      eventEnvelope(
        'customer.subscription.created',
        a.sub({ metadata: { user_id: a.user.id, tier: 'pro' }, priceId: PRICE_FAMILY }),
      ),
    );
    expect(await tierOf(a.token)).toBe('family');
    const b = await subscriber();
    await deliver(
      eventEnvelope(
        'customer.subscription.created',
        b.sub({ metadata: { user_id: b.user.id, tier: 'family' }, priceId: 'price_other' }),
      ),
    );
    expect(await tierOf(b.token)).toBe('family');
  });

  it('reads valid_until from the subscription (older API) or from its first item (newer API)', async () => {
    const end = nowSeconds() + 86400 * 31;
    const a = await subscriber();
    await deliver(
      eventEnvelope('customer.subscription.created', a.sub({ periodEnd: end, periodEndOn: 'top' })),
    );
    expect((await subscriptionOf(a.token)).valid_until).toBe(new Date(end * 1000).toISOString());
    const b = await subscriber();
    await deliver(
      eventEnvelope('customer.subscription.created', b.sub({ periodEnd: end + 1, periodEndOn: 'items' })),
    );
    expect((await subscriptionOf(b.token)).valid_until).toBe(new Date((end + 1) * 1000).toISOString());
  });

  it('maps provider statuses: trialing keeps the tier, canceled is cancelled and free', async () => {
    const u = await subscriber();
    const t = nowSeconds();
    await deliver(
      eventEnvelope('customer.subscription.created', u.sub({ status: 'trialing' }), { created: t }),
    );
    expect(await subscriptionOf(u.token)).toMatchObject({ status: 'trialing', tier: 'pro' });
    await deliver(
      eventEnvelope('customer.subscription.updated', u.sub({ status: 'canceled' }), { created: t + 1 }),
    );
    expect(await subscriptionOf(u.token)).toMatchObject({ status: 'cancelled', tier: 'free' });
    expect(await tierOf(u.token)).toBe('free');
  });

  it('finds the user by the stored customer id when metadata has no user_id', async () => {
    const u = await createUser(ctx);
    const customer = unique('cus');
    await new BillingRepository(ctx.database.db).saveCustomer(u.user.id, customer);
    const sub = subscriptionObject({ id: unique('sub'), customer, priceId: PRICE_PRO, metadata: {} });
    expect((await deliver(eventEnvelope('customer.subscription.created', sub))).status).toBe(200);
    expect(await tierOf(u.token)).toBe('pro');
  });

  it('answers 200 and changes nothing for an unknown customer', async () => {
    const sub = subscriptionObject({ id: unique('sub'), customer: unique('cus'), priceId: PRICE_PRO });
    expect((await deliver(eventEnvelope('customer.subscription.created', sub))).status).toBe(200);
  });

  it.each(['parent', 'top'] as const)(
    'marks the subscription past_due on invoice.payment_failed (subscription named on %s)',
    async (shape) => {
      const u = await subscriber();
      const sub = u.sub() as { id: string; customer: string };
      const t = nowSeconds();
      await deliver(eventEnvelope('customer.subscription.created', sub, { created: t }));
      const invoice = invoiceObject({ subscription: sub.id, customer: sub.customer, shape });
      expect(
        (await deliver(eventEnvelope('invoice.payment_failed', invoice, { created: t + 1 }))).status,
      ).toBe(200);
      expect(await subscriptionOf(u.token)).toMatchObject({ status: 'past_due', tier: 'pro' });
      // The retry succeeded later: the newer update restores active.
      await deliver(eventEnvelope('customer.subscription.updated', sub, { created: t + 2 }));
      expect(await subscriptionOf(u.token)).toMatchObject({ status: 'active' });
    },
  );

  it('does not let the end of an old subscription cancel the current one', async () => {
    const u = await subscriber();
    const t = nowSeconds();
    const customer = unique('cus');
    const old = subscriptionObject({
      id: unique('sub'),
      customer,
      priceId: PRICE_PRO,
      metadata: { user_id: u.user.id },
    });
    const current = subscriptionObject({
      id: unique('sub'),
      customer,
      priceId: PRICE_FAMILY,
      metadata: { user_id: u.user.id },
    });
    await deliver(eventEnvelope('customer.subscription.created', old, { created: t }));
    await deliver(eventEnvelope('customer.subscription.created', current, { created: t + 1 }));
    await deliver(
      eventEnvelope('customer.subscription.deleted', { ...old, status: 'canceled' }, { created: t + 2 }),
    );
    expect(await subscriptionOf(u.token)).toMatchObject({
      tier: 'family',
      status: 'active',
      stripe_subscription_id: current.id,
    });
  });
});

describe('the provider’s official fixtures', () => {
  it.skipIf(!stripeFixtures())(
    'accepts the fixture subscription unchanged but for our metadata',
    async () => {
      const u = await createUser(ctx);
      const fixture = structuredClone(stripeFixtures()!.subscription);
      fixture.metadata = { user_id: u.user.id, tier: 'pro' };
      const res = await deliver(eventEnvelope('customer.subscription.created', fixture));
      expect(res.status).toBe(200);
      const sub = await subscriptionOf(u.token);
      // fixture: status active, cancel_at_period_end true, period end only on the item (976287773).
      expect(sub).toEqual({
        tier: 'pro',
        status: 'active',
        stripe_subscription_id: fixture.id,
        valid_until: new Date(976287773 * 1000).toISOString(),
        cancel_at_period_end: true,
      });
    },
  );

  it.skipIf(stripeFixtures())(FIXTURES_MISSING_MESSAGE, () => undefined);
});
