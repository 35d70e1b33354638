import { SignJWT } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../platform/security/tokens.ts';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  startTestApp,
  TEST_JWT_SECRET,
  type TestApp,
} from '../../../test/support/app.ts';
import { AccountsRepository } from './repository.ts';
import { AccountsService } from './service.ts';
import { createUser } from '../../../test/support/factories.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';

let ctx: TestApp;
let api: Api;

beforeAll(async () => {
  ctx = await startTestApp();
  api = client(ctx.baseUrl);
});
afterAll(() => ctx.close());

const refreshCookieOf = (headers: Headers): string | undefined => {
  const cookie = headers.getSetCookie().find((c) => c.startsWith('refresh_token='));
  return cookie?.split(';')[0];
};

async function register(email: string, password = 'password123', name = 'Ada') {
  return api('POST', '/api/auth/register', { body: { email, password, name } });
}

async function login(email: string, password = 'password123') {
  const res = await api('POST', '/api/auth/login', { body: { email, password } });
  return { res, cookie: refreshCookieOf(res.headers), token: res.body?.access_token as string };
}

describe('register', () => {
  it('creates a free user, trims and lower-cases the email, issues no token', async () => {
    const res = await register('  Ada.Lovelace@Example.COM ');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'ada.lovelace@example.com',
      name: 'Ada',
      household_size: 1,
      dietary_restrictions: [],
      allergies: [],
      health_goals: [],
      cooking_skill: 'beginner',
      tier: 'free',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.body).not.toHaveProperty('password_hash');
  });

  it('stores the password with argon2id, never in clear', async () => {
    const res = await register('hash-check@example.com', 'password123');
    const row = await ctx.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('answers 409 email_taken for a duplicate, whatever the case', async () => {
    await register('dup@example.com');
    expectProblem(await register('DUP@example.com'), 409, 'email_taken');
  });

  it('refuses concurrent duplicates: exactly one of them wins', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => register('race@example.com')));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it.each([
    [{ email: 'not-an-email', password: 'password123', name: 'A' }, 'email'],
    [{ email: `${'a'.repeat(250)}@x.io`, password: 'password123', name: 'A' }, 'email'],
    [{ email: 'a@b.io', password: 'short', name: 'A' }, 'password'],
    [{ email: 'a@b.io', password: 'x'.repeat(129), name: 'A' }, 'password'],
    [{ email: 'a@b.io', password: 'password123', name: '' }, 'name'],
    [{ email: 'a@b.io', password: 'password123', name: 'n'.repeat(101) }, 'name'],
    [{ email: 'a@b.io', password: 'password123' }, 'name'],
    [{ email: 42, password: 'password123', name: 'A' }, 'email'],
  ])('rejects %j with validation_error on %s', async (body, field) => {
    const res = await api('POST', '/api/auth/register', { body });
    const problem = expectProblem(res, 400, 'validation_error');
    expect(problem.errors.map((e: { field: string }) => e.field)).toContain(field);
  });
});

describe('admin rights', () => {
  it('never come from registering a listed ADMIN_EMAILS address: the service created it, so 409', async () => {
    expectProblem(await register(ADMIN_EMAIL, 'password123', 'Mallory'), 409, 'email_taken');
    expectProblem(await register(ADMIN_EMAIL.toUpperCase(), 'password123', 'Mallory'), 409, 'email_taken');
    // The created account logs in with ADMIN_PASSWORD and administers.
    const { token } = await login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await api('GET', '/api/admin/admins', { token })).body.items).toEqual([
      { email: ADMIN_EMAIL, name: 'Administrator', is_admin: true },
    ]);
  });

  it('are not given to a listed address that someone registered before the service created it', async () => {
    const squatter = await createUser(ctx, { email: 'squatter@example.com', password: 'password123' });
    const later = new AccountsService(
      new AccountsRepository(ctx.deps.db),
      ctx.deps.tokens,
      new Set(['squatter@example.com']),
    );
    expect(await later.bootstrapAdmins('another-password')).toEqual([
      { email: 'squatter@example.com', outcome: 'registered_by_someone_else' },
    ]);
    expectProblem(await api('GET', '/api/admin/admins', { token: squatter.token }), 403, 'forbidden');
    const { res } = await login('squatter@example.com', 'another-password');
    expectProblem(res, 401, 'invalid_credentials');
  });

  it('are granted and revoked by an admin through the API, read from stored data', async () => {
    const admin = await createUser(ctx, { admin: true });
    const helper = await createUser(ctx, { email: 'helper@example.com' });
    expectProblem(await api('GET', '/api/admin/admins', { token: helper.token }), 403, 'forbidden');
    const anonymous = await api('PUT', '/api/admin/admins/helper@example.com');
    expectProblem(anonymous, 401, 'unauthorized');
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expectProblem(
      await api('PUT', '/api/admin/admins/not-an-email', { token: admin.token }),
      400,
      'validation_error',
    );
    const granted = await api('PUT', '/api/admin/admins/Helper@Example.com', { token: admin.token });
    expect(granted.status).toBe(200);
    expect(granted.body).toEqual({ email: 'helper@example.com', name: expect.any(String), is_admin: true });
    // The token signed before the grant works: rights come from the stored user.
    expect((await api('GET', '/api/admin/admins', { token: helper.token })).status).toBe(200);
    expectProblem(
      await api('PUT', '/api/admin/admins/nobody@example.com', { token: admin.token }),
      404,
      'not_found',
    );
    expectProblem(
      await api('DELETE', `/api/admin/admins/${encodeURIComponent(ADMIN_EMAIL)}`, { token: admin.token }),
      409,
      'conflict',
    );
    expect((await api('DELETE', '/api/admin/admins/helper@example.com', { token: admin.token })).status).toBe(
      204,
    );
    expectProblem(await api('GET', '/api/admin/admins', { token: helper.token }), 403, 'forbidden');
  });

  it('stop the service from starting when a listed account must be created and ADMIN_PASSWORD is unset', async () => {
    await expect(startTestApp({ ADMIN_EMAILS: 'new-admin@example.com', ADMIN_PASSWORD: '' })).rejects.toThrow(
      /ADMIN_PASSWORD: required to create the admin account new-admin@example.com/,
    );
  });
});

describe('login', () => {
  beforeAll(async () => {
    await register('login@example.com', 'password123');
  });

  it('answers the access token in the body and the refresh token as a strict httpOnly cookie', async () => {
    const { res } = await login('LOGIN@example.com');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 900 });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('refresh_token='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api\/auth/);
    expect(cookie).toMatch(/Max-Age=2592000/);
  });

  it('puts the spec claims in the access token', async () => {
    const { token } = await login('login@example.com');
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header.alg).toBe('HS256');
    expect(payload).toMatchObject({
      email: 'login@example.com',
      tier: 'free',
      is_admin: false,
      token_type: 'access',
    });
    expect(payload.sub).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof payload.jti).toBe('string');
    expect(payload.exp - payload.iat).toBe(900);
  });

  it('answers the same 401 invalid_credentials for a wrong password and an unknown email', async () => {
    const wrong = (await login('login@example.com', 'wrong-password')).res;
    const unknown = (await login('nobody@example.com', 'wrong-password')).res;
    expectProblem(wrong, 401, 'invalid_credentials');
    expectProblem(unknown, 401, 'invalid_credentials');
    expect(wrong.body.detail).toBe(unknown.body.detail);
  });

  it('stores only the SHA-256 of the refresh token', async () => {
    const { cookie } = await login('login@example.com');
    const raw = cookie!.slice('refresh_token='.length);
    const rows = await ctx.database.db.selectFrom('refresh_tokens').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).toContain(sha256Hex(raw));
    expect(rows.some((r) => r.token_hash === raw)).toBe(false);
  });
});

describe('refresh', () => {
  beforeAll(async () => {
    await register('refresh@example.com');
  });

  it('rotates: a new access token and a new cookie; the old cookie is then refused', async () => {
    const { cookie } = await login('refresh@example.com');
    const first = await api('POST', '/api/auth/refresh', { cookie });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 900 });
    const next = refreshCookieOf(first.headers);
    expect(next).toBeDefined();
    expect(next).not.toBe(cookie);
    const me = await api('GET', '/api/me', { token: first.body.access_token });
    expect(me.status).toBe(200);
    expect((await api('POST', '/api/auth/refresh', { cookie: next })).status).toBe(200);
  });

  it('detects reuse after the grace period: replaying a used token revokes the whole login', async () => {
    let now = Date.now();
    const clocked = await startTestApp({}, undefined, { now: () => new Date(now) });
    const clockedApi = client(clocked.baseUrl);
    try {
      const { email, password } = await createUser(clocked);
      const logged = await clockedApi('POST', '/api/auth/login', { body: { email, password } });
      const cookie = refreshCookieOf(logged.headers);
      const rotated = refreshCookieOf((await clockedApi('POST', '/api/auth/refresh', { cookie })).headers);
      now += 11_000; // past the 10-s grace: this is a replay, not a second tab
      expectProblem(await clockedApi('POST', '/api/auth/refresh', { cookie }), 401, 'invalid_refresh_token');
      // The legitimate successor is revoked too.
      expectProblem(
        await clockedApi('POST', '/api/auth/refresh', { cookie: rotated }),
        401,
        'invalid_refresh_token',
      );
    } finally {
      await clocked.close();
    }
  });

  it('two tabs refreshing with the same cookie at once both get a working pair; the login survives', async () => {
    const { cookie } = await login('refresh@example.com');
    const results = await Promise.all([1, 2].map(() => api('POST', '/api/auth/refresh', { cookie })));
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const next = results.map((r) => refreshCookieOf(r.headers));
    expect(new Set(next).size).toBe(2);
    for (const r of results)
      expect((await api('GET', '/api/me', { token: r.body.access_token })).status).toBe(200);
    // Each tab's new cookie goes on working: nothing was revoked.
    for (const c of next) expect((await api('POST', '/api/auth/refresh', { cookie: c })).status).toBe(200);
  });

  it('answers a retried refresh (the answer was lost) with a fresh pair of the same login', async () => {
    const { cookie } = await login('refresh@example.com');
    expect((await api('POST', '/api/auth/refresh', { cookie })).status).toBe(200);
    const retried = await api('POST', '/api/auth/refresh', { cookie });
    expect(retried.status).toBe(200);
    expect(
      (await api('POST', '/api/auth/refresh', { cookie: refreshCookieOf(retried.headers) })).status,
    ).toBe(200);
  });

  it('answers 401 invalid_refresh_token without a cookie, with garbage, or with an access token', async () => {
    expectProblem(await api('POST', '/api/auth/refresh'), 401, 'invalid_refresh_token');
    expectProblem(
      await api('POST', '/api/auth/refresh', { cookie: 'refresh_token=garbage' }),
      401,
      'invalid_refresh_token',
    );
    const { token } = await login('refresh@example.com');
    expectProblem(
      await api('POST', '/api/auth/refresh', { cookie: `refresh_token=${token}` }),
      401,
      'invalid_refresh_token',
    );
  });

  it('refuses an expired refresh token', async () => {
    const { user } = await createUser(ctx);
    const key = new TextEncoder().encode(TEST_JWT_SECRET);
    const expired = await new SignJWT({ fid: crypto.randomUUID(), token_type: 'refresh' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setJti(crypto.randomUUID())
      .setIssuedAt(Math.floor(Date.now() / 1000) - 100)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(key);
    expectProblem(
      await api('POST', '/api/auth/refresh', { cookie: `refresh_token=${expired}` }),
      401,
      'invalid_refresh_token',
    );
  });
});

describe('logout', () => {
  it('answers 204, clears the cookie and revokes the refresh token; the access token lives on', async () => {
    await register('logout@example.com');
    const { cookie, token } = await login('logout@example.com');
    const res = await api('POST', '/api/auth/logout', { token, cookie });
    expect(res.status).toBe(204);
    expect(res.headers.getSetCookie().join()).toMatch(
      /refresh_token=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/,
    );
    expectProblem(await api('POST', '/api/auth/refresh', { cookie }), 401, 'invalid_refresh_token');
    expect((await api('GET', '/api/me', { token })).status).toBe(200);
  });

  it('requires a bearer token', async () => {
    expectProblem(await api('POST', '/api/auth/logout'), 401, 'unauthorized');
  });

  it('does not revoke another user’s login', async () => {
    await register('victim@example.com');
    const victim = await login('victim@example.com');
    const attacker = await createUser(ctx);
    expect(
      (await api('POST', '/api/auth/logout', { token: attacker.token, cookie: victim.cookie })).status,
    ).toBe(204);
    expect((await api('POST', '/api/auth/refresh', { cookie: victim.cookie })).status).toBe(200);
  });
});

describe('access tokens', () => {
  const key = new TextEncoder().encode(TEST_JWT_SECRET);

  it('answers 401 unauthorized with WWW-Authenticate for a missing, malformed, expired, tampered or alg-none token', async () => {
    const { user, token } = await createUser(ctx);
    const expired = await new SignJWT({
      email: user.email,
      tier: 'free',
      is_admin: false,
      token_type: 'access',
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setJti('x')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 2000)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 1000)
      .sign(key);
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const tampered = [
      h,
      Buffer.from(JSON.stringify({ ...payload, tier: 'pro' })).toString('base64url'),
      s,
    ].join('.');
    const none = [Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url'), p, ''].join(
      '.',
    );
    const wrongKey = await new SignJWT({ ...payload })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('x'.repeat(48)));
    for (const authorization of [
      undefined,
      'Bearer',
      'Basic abc',
      `Bearer ${expired}`,
      `Bearer ${tampered}`,
      `Bearer ${none}`,
      `Bearer ${wrongKey}`,
    ]) {
      const res = await api('GET', '/api/me', { headers: authorization ? { authorization } : {} });
      expectProblem(res, 401, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('refuses a refresh token used as an access token', async () => {
    const { user } = await createUser(ctx);
    const refresh = await ctx.deps.tokens.signRefresh(user.id, crypto.randomUUID());
    expectProblem(await api('GET', '/api/me', { token: refresh.token }), 401, 'unauthorized');
  });

  it('refuses the token of a deleted account', async () => {
    const { user, token } = await createUser(ctx);
    await ctx.database.db.deleteFrom('users').where('id', '=', user.id).execute();
    expectProblem(await api('GET', '/api/me', { token }), 401, 'unauthorized');
  });
});

describe('onboarding and profile', () => {
  it('completes the profile with the contract vocabularies', async () => {
    const { token } = await createUser(ctx);
    const res = await api('POST', '/api/auth/onboarding', {
      token,
      body: {
        household_size: 4,
        dietary_restrictions: ['vegetarian', 'gluten_free', 'vegetarian'],
        allergies: ['peanuts'],
        health_goals: ['muscle_gain'],
        cooking_skill: 'advanced',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      household_size: 4,
      dietary_restrictions: ['vegetarian', 'gluten_free'],
      allergies: ['peanuts'],
      health_goals: ['muscle_gain'],
      cooking_skill: 'advanced',
      tier: 'free',
    });
    expect((await api('GET', '/api/me', { token })).body).toEqual(res.body);
  });

  it.each([
    { household_size: 0, cooking_skill: 'advanced' },
    { household_size: 21, cooking_skill: 'advanced' },
    { household_size: 2.5, cooking_skill: 'advanced' },
    { household_size: 2, cooking_skill: 'chef' },
    { household_size: 2, cooking_skill: 'advanced', allergies: ['cats'] },
    { household_size: 2, cooking_skill: 'advanced', dietary_restrictions: ['carnivore'] },
    { household_size: 2, cooking_skill: 'advanced', health_goals: ['immortality'] },
    { cooking_skill: 'advanced' },
  ])('rejects %j', async (body) => {
    const { token } = await createUser(ctx);
    expectProblem(await api('POST', '/api/auth/onboarding', { token, body }), 400, 'validation_error');
  });

  it('PUT /api/me changes only the given fields and validates them', async () => {
    const { token } = await createUser(ctx, { name: 'Before' });
    const res = await api('PUT', '/api/me', {
      token,
      body: { name: '  After ', allergies: ['sesame'], unknown: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'After', allergies: ['sesame'], household_size: 1 });
    expectProblem(
      await api('PUT', '/api/me', { token, body: { household_size: 99 } }),
      400,
      'validation_error',
    );
    expectProblem(await api('PUT', '/api/me', { token, body: { name: '' } }), 400, 'validation_error');
    expect((await api('GET', '/api/me', { token })).body.name).toBe('After');
  });

  it('reads the tier from the stored user, not the token', async () => {
    const { user, token } = await createUser(ctx);
    await ctx.services.accounts.setTier(user.id, 'pro');
    expect((await api('GET', '/api/me', { token })).body.tier).toBe('pro');
  });
});

describe('the caller of a request', () => {
  it('is read with the callers of the requests that arrive together in one query, never kept for later ones', async () => {
    const repo = new AccountsRepository(ctx.deps.db);
    const reads: string[][] = [];
    const findByIds = repo.findByIds.bind(repo);
    repo.findByIds = (ids) => (reads.push([...ids]), findByIds(ids));
    const accounts = new AccountsService(repo, ctx.deps.tokens, new Set());
    const [a, b] = [await createUser(ctx), await createUser(ctx, { tier: 'pro' })];
    const gone = '00000000-0000-4000-8000-00000000dead';
    const together = await Promise.all([a, b, a].map((u) => accounts.loadPrincipal(u.user.id)));
    expect(together.map((p) => [p?.id, p?.tier])).toEqual([
      [a.user.id, 'free'],
      [b.user.id, 'pro'],
      [a.user.id, 'free'],
    ]);
    expect(await accounts.loadPrincipal(gone)).toBeUndefined();
    expect(reads).toEqual([[a.user.id, b.user.id, a.user.id], [gone]]);
    // A change is seen by the next request: nothing is kept between reads.
    await sql`update users set tier = 'pro', is_admin = true where id = ${a.user.id}`.execute(
      ctx.database.db,
    );
    expect(await accounts.loadPrincipal(a.user.id)).toMatchObject({ tier: 'pro', isAdmin: true });
    await sql`delete from users where id = ${a.user.id}`.execute(ctx.database.db);
    expect(await accounts.loadPrincipal(a.user.id)).toBeUndefined();
    expect(reads).toHaveLength(4);
  });
});
