import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser } from '../../../test/support/factories.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';
import {
  eventEnvelope,
  signPayload,
  startStripeFake,
  subscriptionObject,
  type StripeFake,
} from '../../../test/support/stripe-fake.ts';

const WEBHOOK_SECRET = 'whsec_billing_test_secret';
const PRICE_PRO = 'price_pro_test';
const URLS = { success_url: 'https://app.example/ok', cancel_url: 'https://app.example/cancel' };

let stripe: StripeFake;
let ctx: TestApp;
let api: Api;

beforeAll(async () => {
  stripe = await startStripeFake();
  ctx = await startTestApp({
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_API_BASE: stripe.baseUrl,
    STRIPE_TIMEOUT_MS: '1500',
    PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
    // PRICE_ID_FAMILY left unset: checkout of family answers 503 naming it.
    PRICE_ID_PRO: PRICE_PRO,
  });
  api = client(ctx.baseUrl);
});
afterAll(async () => {
  await ctx.close();
  await stripe.close();
});
beforeEach(() => {
  stripe.mode = 'ok';
});

function deliver(event: unknown) {
  const body = JSON.stringify(event);
  return api('POST', '/api/subscription/webhook', {
    rawBody: body,
    headers: { 'content-type': 'application/json', 'payment-signature': signPayload(body, WEBHOOK_SECRET) },
  });
}

async function login(email: string, password: string) {
  const res = await api('POST', '/api/auth/login', { body: { email, password } });
  expect(res.status).toBe(200);
  return res.body.access_token as string;
}

const FREE_SUBSCRIPTION = {
  tier: 'free',
  status: 'active',
  stripe_subscription_id: null,
  valid_until: null,
  cancel_at_period_end: false,
};

describe('GET /api/subscription', () => {
  it('answers the free, active, empty subscription for a user who never paid', async () => {
    const { token } = await createUser(ctx);
    const res = await api('GET', '/api/subscription', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(FREE_SUBSCRIPTION);
  });

  it('requires a bearer token', async () => {
    const res = await api('GET', '/api/subscription');
    expectProblem(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('the paid story: checkout, webhook, tier, portal, cancellation', () => {
  it('takes a Free user to pro and back to free', async () => {
    const alice = await createUser(ctx);
    stripe.requests.length = 0;

    // 1. Checkout creates the provider customer once and carries the user id and tier.
    const checkout = await api('POST', '/api/subscription/checkout', {
      token: alice.token,
      body: { tier: 'pro', ...URLS, unknown_field: 'ignored' },
    });
    expect(checkout.status).toBe(200);
    expect(checkout.body).toEqual({
      checkout_url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\//),
    });
    const [customerCall, sessionCall] = stripe.requests;
    expect(customerCall).toMatchObject({
      method: 'POST',
      path: '/v1/customers',
      params: { email: alice.email, 'metadata[user_id]': alice.user.id },
    });
    expect(customerCall!.headers.authorization).toBe('Bearer sk_test_fake');
    expect(sessionCall).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    expect(sessionCall!.params).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': PRICE_PRO,
      'line_items[0][quantity]': '1',
      client_reference_id: alice.user.id,
      'subscription_data[metadata][user_id]': alice.user.id,
      'subscription_data[metadata][tier]': 'pro',
      success_url: URLS.success_url,
      cancel_url: URLS.cancel_url,
    });
    const customerId = sessionCall!.params.customer!;
    expect(customerId).toMatch(/^cus_/);

    // A second checkout (the user came back) reuses the customer.
    const again = await api('POST', '/api/subscription/checkout', {
      token: alice.token,
      body: { tier: 'pro', ...URLS },
    });
    expect(again.status).toBe(200);
    expect(stripe.requests.filter((r) => r.path === '/v1/customers')).toHaveLength(1);
    expect(stripe.requests.at(-1)).toMatchObject({
      path: '/v1/checkout/sessions',
      params: { customer: customerId },
    });

    // 2. The provider reports the new subscription.
    const periodEnd = Math.floor(Date.now() / 1000) + 30 * 86400;
    const subscription = subscriptionObject({
      id: 'sub_story_1',
      customer: customerId,
      priceId: PRICE_PRO,
      metadata: { user_id: alice.user.id, tier: 'pro' },
      periodEnd,
    });
    const created = await deliver(eventEnvelope('customer.subscription.created', subscription));
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ received: true });

    // 3. The tier shows at once in /api/me (same token) and in the next login's token.
    const me = await api('GET', '/api/me', { token: alice.token });
    expect(me.body.tier).toBe('pro');
    const nextToken = await login(alice.email, alice.password);
    expect(decodeJwt(nextToken).tier).toBe('pro');
    const status = await api('GET', '/api/subscription', { token: alice.token });
    expect(status.body).toEqual({
      tier: 'pro',
      status: 'active',
      stripe_subscription_id: 'sub_story_1',
      valid_until: new Date(periodEnd * 1000).toISOString(),
      cancel_at_period_end: false,
    });

    // A running subscription changes plan in the portal, not through a second checkout.
    expectProblem(
      await api('POST', '/api/subscription/checkout', { token: alice.token, body: { tier: 'pro', ...URLS } }),
      409,
      'conflict',
    );

    // 4. The portal opens for the stored customer.
    const portal = await api('POST', '/api/subscription/portal', {
      token: nextToken,
      body: { return_url: 'https://app.example/account' },
    });
    expect(portal.status).toBe(200);
    expect(portal.body).toEqual({ portal_url: expect.stringMatching(/^https:\/\/billing\.stripe\.test\//) });
    expect(stripe.requests.at(-1)).toMatchObject({
      path: '/v1/billing_portal/sessions',
      params: { customer: customerId, return_url: 'https://app.example/account' },
    });

    // 5. Cancelling at period end keeps the tier; the deletion returns the user to free.
    const cancelling = await deliver(
      eventEnvelope(
        'customer.subscription.updated',
        { ...subscription, cancel_at_period_end: true },
        {
          created: Math.floor(Date.now() / 1000) + 1,
        },
      ),
    );
    expect(cancelling.status).toBe(200);
    const pending = await api('GET', '/api/subscription', { token: alice.token });
    expect(pending.body).toMatchObject({ tier: 'pro', status: 'active', cancel_at_period_end: true });

    const deleted = await deliver(
      eventEnvelope(
        'customer.subscription.deleted',
        { ...subscription, status: 'canceled' },
        {
          created: Math.floor(Date.now() / 1000) + 2,
        },
      ),
    );
    expect(deleted.status).toBe(200);
    expect((await api('GET', '/api/me', { token: alice.token })).body.tier).toBe('free');
    const after = await api('GET', '/api/subscription', { token: alice.token });
    expect(after.body).toMatchObject({
      tier: 'free',
      status: 'cancelled',
      stripe_subscription_id: 'sub_story_1',
      cancel_at_period_end: false,
    });
    expect(decodeJwt(await login(alice.email, alice.password)).tier).toBe('free');
    // Free again: the portal is a paid-tier route.
    expectProblem(
      await api('POST', '/api/subscription/portal', {
        token: alice.token,
        body: { return_url: 'https://a.example' },
      }),
      403,
      'tier_required',
    );
  });
});

describe('POST /api/subscription/checkout', () => {
  it.each([
    [{ tier: 'gold', ...URLS }, 'tier'],
    [{ tier: 'free', ...URLS }, 'tier'],
    [{ tier: 'pro', success_url: 'ftp://app.example/ok', cancel_url: URLS.cancel_url }, 'success_url'],
    [{ tier: 'pro', success_url: URLS.success_url, cancel_url: 'not a url' }, 'cancel_url'],
    [{ tier: 'pro', success_url: URLS.success_url }, 'cancel_url'],
  ])('rejects %j with validation_error on %s', async (body, field) => {
    const { token } = await createUser(ctx);
    const res = await api('POST', '/api/subscription/checkout', { token, body });
    const problem = expectProblem(res, 400, 'validation_error');
    expect(problem.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('requires a bearer token', async () => {
    expectProblem(
      await api('POST', '/api/subscription/checkout', { body: { tier: 'pro', ...URLS } }),
      401,
      'unauthorized',
    );
  });

  it('answers 502 upstream_error when the provider fails and 504 when it does not answer', async () => {
    const { token } = await createUser(ctx);
    stripe.mode = 'fail';
    expectProblem(
      await api('POST', '/api/subscription/checkout', { token, body: { tier: 'pro', ...URLS } }),
      502,
      'upstream_error',
    );
    stripe.mode = 'hang';
    expectProblem(
      await api('POST', '/api/subscription/checkout', { token, body: { tier: 'pro', ...URLS } }),
      504,
      'upstream_timeout',
    );
  });
});

describe('POST /api/subscription/portal', () => {
  it('is for pro and family users (403 tier_required for free)', async () => {
    const { token } = await createUser(ctx);
    const res = await api('POST', '/api/subscription/portal', {
      token,
      body: { return_url: 'https://a.example' },
    });
    expect(expectProblem(res, 403, 'tier_required').required_tier).toBe('pro');
  });

  it('answers 409 conflict for a paid user without a billing account', async () => {
    const { token } = await createUser(ctx, { tier: 'family' });
    expectProblem(
      await api('POST', '/api/subscription/portal', { token, body: { return_url: 'https://a.example' } }),
      409,
      'conflict',
    );
  });

  it('validates return_url', async () => {
    const { token } = await createUser(ctx, { tier: 'pro' });
    expectProblem(
      await api('POST', '/api/subscription/portal', { token, body: { return_url: 'javascript:alert(1)' } }),
      400,
      'validation_error',
    );
  });
});

describe('without payment settings', () => {
  it('answers 503 not_configured naming the tier’s missing price id', async () => {
    const { token } = await createUser(ctx);
    const family = await api('POST', '/api/subscription/checkout', {
      token,
      body: { tier: 'family', ...URLS },
    });
    expect(expectProblem(family, 503, 'not_configured').detail).toContain('PRICE_ID_FAMILY');
  });

  it('answers 503 not_configured naming STRIPE_SECRET_KEY or PAYMENT_WEBHOOK_SECRET', async () => {
    const bare = await startTestApp();
    try {
      const bareApi = client(bare.baseUrl);
      const { token } = await createUser(bare, { tier: 'pro' });
      const checkout = await bareApi('POST', '/api/subscription/checkout', {
        token,
        body: { tier: 'pro', ...URLS },
      });
      expect(expectProblem(checkout, 503, 'not_configured').detail).toContain('STRIPE_SECRET_KEY');
      const portal = await bareApi('POST', '/api/subscription/portal', {
        token,
        body: { return_url: 'https://a.example' },
      });
      expect(expectProblem(portal, 503, 'not_configured').detail).toContain('STRIPE_SECRET_KEY');
      const webhook = await bareApi('POST', '/api/subscription/webhook', {
        rawBody: '{}',
        headers: { 'content-type': 'application/json', 'payment-signature': 't=1,v1=00' },
      });
      expect(expectProblem(webhook, 503, 'not_configured').detail).toContain('PAYMENT_WEBHOOK_SECRET');
      // Reading the subscription needs no provider.
      expect((await bareApi('GET', '/api/subscription', { token })).body).toMatchObject({ tier: 'pro' });
    } finally {
      await bare.close();
    }
  });
});
