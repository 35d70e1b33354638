import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser } from '../../../test/support/factories.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';

let ctx: TestApp;
let api: Api;
beforeAll(async () => {
  ctx = await startTestApp();
  api = client(ctx.baseUrl);
});
afterAll(() => ctx.close());

describe('push tokens', () => {
  it('registers, lists with created_at, and deletes a token', async () => {
    const { token } = await createUser(ctx);
    const created = await api('POST', '/api/me/push-tokens', {
      token,
      body: { token: 'device-abc', platform: 'ios' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), token: 'device-abc', platform: 'ios' });
    const list = await api('GET', '/api/me/push-tokens', { token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { id: created.body.id, token: 'device-abc', platform: 'ios', created_at: expect.stringMatching(/Z$/) },
    ]);
    expect((await api('DELETE', `/api/me/push-tokens/${created.body.id}`, { token })).status).toBe(204);
    expect((await api('GET', '/api/me/push-tokens', { token })).body).toEqual([]);
    expectProblem(await api('DELETE', `/api/me/push-tokens/${created.body.id}`, { token }), 404, 'not_found');
  });

  it('answers 404 for another user’s token and for a malformed id, and keeps the token', async () => {
    const owner = await createUser(ctx);
    const other = await createUser(ctx);
    const created = await api('POST', '/api/me/push-tokens', {
      token: owner.token,
      body: { token: 'owned', platform: 'android' },
    });
    expectProblem(
      await api('DELETE', `/api/me/push-tokens/${created.body.id}`, { token: other.token }),
      404,
      'not_found',
    );
    expectProblem(
      await api('DELETE', '/api/me/push-tokens/not-a-uuid', { token: other.token }),
      404,
      'not_found',
    );
    expect((await api('GET', '/api/me/push-tokens', { token: owner.token })).body).toHaveLength(1);
    expect((await api('GET', '/api/me/push-tokens', { token: other.token })).body).toEqual([]);
  });

  it('never takes a device token from the account that registered it', async () => {
    const a = await createUser(ctx);
    const b = await createUser(ctx);
    await api('POST', '/api/me/push-tokens', {
      token: a.token,
      body: { token: 'shared-device', platform: 'web' },
    });
    await api('POST', '/api/me/push-tokens', {
      token: b.token,
      body: { token: 'shared-device', platform: 'web' },
    });
    expect((await api('GET', '/api/me/push-tokens', { token: a.token })).body).toHaveLength(1);
    expect((await api('GET', '/api/me/push-tokens', { token: b.token })).body).toHaveLength(1);
    // Registering it again is idempotent for the caller.
    const again = await api('POST', '/api/me/push-tokens', {
      token: b.token,
      body: { token: 'shared-device', platform: 'web' },
    });
    expect(again.status).toBe(201);
    expect((await api('GET', '/api/me/push-tokens', { token: b.token })).body).toHaveLength(1);
  });

  it('validates platform and token, and requires auth', async () => {
    const { token } = await createUser(ctx);
    expectProblem(
      await api('POST', '/api/me/push-tokens', { token, body: { token: 'x', platform: 'symbian' } }),
      400,
      'validation_error',
    );
    expectProblem(
      await api('POST', '/api/me/push-tokens', { token, body: { token: '', platform: 'ios' } }),
      400,
      'validation_error',
    );
    expectProblem(
      await api('POST', '/api/me/push-tokens', { token, body: { platform: 'ios' } }),
      400,
      'validation_error',
    );
    expectProblem(await api('GET', '/api/me/push-tokens'), 401, 'unauthorized');
  });
});
