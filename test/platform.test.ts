import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { checkHeapHoldsSearchIndex, ConfigError, loadDotEnv, parseConfig } from '../src/platform/config.ts';
import { addressKey } from '../src/platform/http/client-address.ts';
import { pagination } from '../src/platform/http/ids.ts';
import { startTestApp, type TestApp } from './support/app.ts';
import { createUser } from './support/factories.ts';
import { client, expectProblem, type Api } from './support/http.ts';

let ctx: TestApp;
let api: Api;

beforeAll(async () => {
  ctx = await startTestApp({}, ({ app }) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get('/api/test/pro', { config: { auth: 'bearer', tier: 'pro' } }, async () => ({ ok: true }));
    r.get('/api/test/admin', { config: { auth: 'admin' } }, async () => ({ ok: true }));
    r.post('/api/test/nobody', { config: { auth: 'none' } }, async () => ({ ok: true }));
    r.get(
      '/api/test/page',
      { config: { auth: 'none' }, schema: { querystring: z.object(pagination(20)) } },
      async (req) => req.query,
    );
    r.get('/api/test/optional', { config: { auth: 'optional' } }, async (req) => ({
      user: req.principal?.id ?? null,
    }));
    r.post(
      '/api/test/echo',
      { config: { auth: 'none' }, schema: { body: z.object({ n: z.number().int().min(1) }) } },
      async (req) => req.body,
    );
    r.get('/api/test/boom', { config: { auth: 'none' } }, async () => {
      throw new Error('secret internals');
    });
  });
  api = client(ctx.baseUrl);
});
afterAll(() => ctx.close());

describe('platform', () => {
  it('GET /api/health answers ok while the database answers', async () => {
    const res = await api('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('serves the OpenAPI document of every route and the docs UI', async () => {
    const res = await api('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/register',
        '/api/auth/login',
        '/api/me',
        '/api/me/push-tokens/{id}',
      ]),
    );
    expect(res.body.paths['/api/me'].get.security).toEqual([{ bearerAuth: [] }]);
    // The flyer upload documents its multipart form, though the handler parses it itself.
    const upload = res.body.paths['/api/admin/stores/{id}/promotions/upload'].post;
    expect(upload.requestBody.content['multipart/form-data'].schema).toMatchObject({
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    });
    const ui = await fetch(`${ctx.baseUrl}/api/docs/`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toMatch(/swagger/i);
  });

  it('answers unknown routes with a 404 problem document', async () => {
    expectProblem(await api('GET', '/api/does-not-exist'), 404, 'not_found');
    expectProblem(await api('DELETE', '/api/health'), 404, 'not_found');
  });

  it('answers an over-long path parameter with 404 and a malformed URL with 400, as problem documents', async () => {
    expectProblem(await api('DELETE', `/api/me/push-tokens/${'x'.repeat(300)}`), 404, 'not_found');
    expectProblem(await api('DELETE', '/api/me/push-tokens/%E0%A4%A'), 400, 'validation_error');
  });

  it('answers malformed JSON, a wrong content type and an oversized body with problem documents', async () => {
    expectProblem(
      await api('POST', '/api/test/echo', {
        rawBody: '{"n":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'validation_error',
    );
    expectProblem(
      await api('POST', '/api/test/echo', { rawBody: 'n=1', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
    expectProblem(
      await api('POST', '/api/test/echo', {
        rawBody: JSON.stringify({ n: 1, pad: 'x'.repeat(2 * 1024 * 1024) }),
        headers: { 'content-type': 'application/json' },
      }),
      413,
      'payload_too_large',
    );
    const invalid = expectProblem(
      await api('POST', '/api/test/echo', { body: { n: 0 } }),
      400,
      'validation_error',
    );
    expect(invalid.errors).toEqual([{ field: 'n', message: expect.any(String) }]);
  });

  it('hides internals of unexpected errors behind a 500 problem document', async () => {
    const res = await api('GET', '/api/test/boom');
    expectProblem(res, 500, 'internal_error');
    expect(res.text).not.toMatch(/secret internals/);
  });

  it('enforces the minimum tier from the stored user: 403 tier_required with required_tier', async () => {
    const free = await createUser(ctx);
    const res = await api('GET', '/api/test/pro', { token: free.token });
    expect(expectProblem(res, 403, 'tier_required').required_tier).toBe('pro');
    const pro = await createUser(ctx, { tier: 'pro' });
    expect((await api('GET', '/api/test/pro', { token: pro.token })).status).toBe(200);
    const family = await createUser(ctx, { tier: 'family' });
    expect((await api('GET', '/api/test/pro', { token: family.token })).status).toBe(200);
    // A token claiming pro for a user stored as free is not believed.
    const forged = await ctx.deps.tokens.signAccess({
      id: free.user.id,
      email: free.email,
      tier: 'pro',
      isAdmin: true,
    });
    expectProblem(await api('GET', '/api/test/pro', { token: forged }), 403, 'tier_required');
    expectProblem(await api('GET', '/api/test/admin', { token: forged }), 403, 'forbidden');
  });

  it('treats an empty application/json body as no body, and still rejects one a route requires', async () => {
    const headers = { 'content-type': 'application/json' };
    expect((await api('POST', '/api/test/nobody', { rawBody: '', headers })).status).toBe(200);
    expectProblem(await api('POST', '/api/test/echo', { rawBody: '', headers }), 400, 'validation_error');
  });

  it('pagination: empty values mean the defaults; out-of-range values are 400', async () => {
    expect((await api('GET', '/api/test/page?limit=&offset=')).body).toEqual({ limit: 20, offset: 0 });
    expect((await api('GET', '/api/test/page?limit=100&offset=3')).body).toEqual({ limit: 100, offset: 3 });
    for (const qs of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc', 'limit=1.5']) {
      expectProblem(await api('GET', `/api/test/page?${qs}`), 400, 'validation_error');
    }
  });

  it('admits admins by their stored email only', async () => {
    const admin = await createUser(ctx, { admin: true });
    expect((await api('GET', '/api/test/admin', { token: admin.token })).status).toBe(200);
    // Admins pass tier checks: they administer whatever their own tier is (e.g. catalog recipes).
    expect((await api('GET', '/api/test/pro', { token: admin.token })).status).toBe(200);
    const user = await createUser(ctx);
    expectProblem(await api('GET', '/api/test/admin', { token: user.token }), 403, 'forbidden');
    expectProblem(await api('GET', '/api/test/admin'), 401, 'unauthorized');
  });

  it('optional auth: anonymous passes, a valid token is used, an invalid one is refused', async () => {
    expect((await api('GET', '/api/test/optional')).body).toEqual({ user: null });
    const u = await createUser(ctx);
    expect((await api('GET', '/api/test/optional', { token: u.token })).body).toEqual({ user: u.user.id });
    expectProblem(await api('GET', '/api/test/optional', { token: 'nope' }), 401, 'unauthorized');
  });

  it('sends security headers, a request id, and no X-Powered-By', async () => {
    const res = await api('GET', '/api/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});

describe('rate limiting', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ RATE_LIMIT_MAX: '5', AUTH_RATE_LIMIT_MAX: '3' });
  });
  afterAll(() => limited.close());

  it('limits every endpoint with headers, then answers 429 rate_limited with Retry-After', async () => {
    const call = client(limited.baseUrl);
    const first = await call('GET', '/api/health');
    expect(first.headers.get('x-ratelimit-limit')).toBe('5');
    for (let i = 0; i < 4; i++) await call('GET', '/api/health');
    const res = await call('GET', '/api/health');
    expectProblem(res, 429, 'rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('limits login and registration more strictly', async () => {
    const call = client(limited.baseUrl);
    const body = { email: 'x@example.com', password: 'password123' };
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call('POST', '/api/auth/login', { body })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe('rate limits that cannot be dodged', () => {
  const wrongLogin = (call: Api, email: string, forwardedFor?: string) =>
    call('POST', '/api/auth/login', {
      body: { email, password: 'wrong-password' },
      ...(forwardedFor ? { headers: { 'x-forwarded-for': forwardedFor } } : {}),
    });

  it('ignores a client’s own X-Forwarded-For unless TRUST_PROXY names the proxy', async () => {
    const app = await startTestApp({ AUTH_RATE_LIMIT_MAX: '3' });
    try {
      const call = client(app.baseUrl);
      const statuses = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await wrongLogin(call, `x${i}@example.com`, `203.0.113.${i}`)).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await app.close();
    }
  });

  it('throttles one account whatever address the attempts come from, and unknown emails alike', async () => {
    const now = Date.now();
    const app = await startTestApp({ TRUST_PROXY: '127.0.0.1', AUTH_RATE_LIMIT_MAX: '1000' }, undefined, {
      now: () => new Date(now),
    });
    try {
      const call = client(app.baseUrl);
      const victim = await createUser(app, { email: 'victim@example.com', password: 'password123' });
      const attempt = async (email: string) => {
        const statuses = [];
        for (let i = 0; i < 8; i++)
          statuses.push((await wrongLogin(call, email, `198.51.100.${i + 1}`)).status);
        return statuses;
      };
      const expected = [401, 401, 401, 401, 401, 401, 429, 429];
      expect(await attempt(victim.email)).toEqual(expected);
      expect(await attempt('nobody-here@example.com')).toEqual(expected);
      const limited = await call('POST', '/api/auth/login', {
        body: { email: victim.email, password: victim.password },
        headers: { 'x-forwarded-for': '192.0.2.77' },
      });
      expectProblem(limited, 429, 'rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });

  it('limits signed-in callers per user and refreshes per login, so one address is not one budget', async () => {
    const app = await startTestApp({ RATE_LIMIT_MAX: '4', AUTH_RATE_LIMIT_MAX: '2' });
    try {
      const call = client(app.baseUrl);
      const [a, b] = [await createUser(app), await createUser(app)];
      const statusesOf = async (token: string) => {
        const out = [];
        for (let i = 0; i < 5; i++) out.push((await call('GET', '/api/me', { token })).status);
        return out;
      };
      expect(await statusesOf(a.token)).toEqual([200, 200, 200, 200, 429]);
      expect(await statusesOf(b.token)).toEqual([200, 200, 200, 200, 429]);
      const cookieOf = (headers: Headers) =>
        headers
          .getSetCookie()
          .find((c) => c.startsWith('refresh_token='))
          ?.split(';')[0];
      const family = async (user: { email: string; password: string }) => {
        const logged = await call('POST', '/api/auth/login', {
          body: { email: user.email, password: user.password },
        });
        let cookie = cookieOf(logged.headers);
        const out = [];
        for (let i = 0; i < 3; i++) {
          const res = await call('POST', '/api/auth/refresh', { cookie });
          out.push(res.status);
          cookie = cookieOf(res.headers) ?? cookie;
        }
        return out;
      };
      expect(await family(a)).toEqual([200, 200, 429]);
      expect(await family(b)).toEqual([200, 200, 429]);
    } finally {
      await app.close();
    }
  });

  it('keeps a coarse per-address backstop over every caller', async () => {
    const app = await startTestApp({ RATE_LIMIT_MAX: '100', ADDRESS_RATE_LIMIT_MAX: '3' });
    try {
      const call = client(app.baseUrl);
      const [a, b] = [await createUser(app), await createUser(app)];
      const statuses = [];
      for (const token of [a.token, b.token, a.token, b.token])
        statuses.push((await call('GET', '/api/me', { token })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await app.close();
    }
  });

  it('groups IPv6 clients by /64 and parses TRUST_PROXY strictly', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:0db8:0001:0002:ffff:1:2:3'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(parseConfig({}).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(parseConfig({ TRUST_PROXY: '10.0.0.0/8, ::1, loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '::1',
      'loopback',
    ]);
    expect(() => parseConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(() => parseConfig({ TRUST_PROXY: '10.0.0.0/40' })).toThrow(/TRUST_PROXY/);
  });

  it('reads a .env file without overriding the real environment, and .env.example lists every setting', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mise-env-'));
    const file = path.join(dir, '.env');
    writeFileSync(file, 'MISE_TEST_FROM_FILE=file\nMISE_TEST_BOTH=file\n');
    process.env.MISE_TEST_BOTH = 'environment';
    try {
      expect(loadDotEnv(path.join(dir, 'absent.env'))).toBe(false);
      expect(loadDotEnv(file)).toBe(true);
      expect(process.env.MISE_TEST_FROM_FILE).toBe('file');
      expect(process.env.MISE_TEST_BOTH).toBe('environment');
    } finally {
      delete process.env.MISE_TEST_FROM_FILE;
      delete process.env.MISE_TEST_BOTH;
      rmSync(dir, { recursive: true, force: true });
    }
    const example = readFileSync(path.resolve(import.meta.dirname, '../.env.example'), 'utf8');
    const config = readFileSync(path.resolve(import.meta.dirname, '../src/platform/config.ts'), 'utf8');
    const settings = [...config.matchAll(/^ {2}([A-Z][A-Z_]+):/gm)].map((m) => m[1]!);
    expect(settings.length).toBeGreaterThan(40);
    expect(settings.filter((name) => !new RegExp(`^# ${name}=`, 'm').test(example))).toEqual([]);
  });

  it('allows recipe imports from non-public networks only when told, and checks the list at start', () => {
    expect(parseConfig({}).recipeImport.allowedNetworks).toEqual([]);
    expect(
      parseConfig({ RECIPE_IMPORT_ALLOWED_NETWORKS: '10.1.2.0/24, fd00::/8' }).recipeImport.allowedNetworks,
    ).toEqual(['10.1.2.0/24', 'fd00::/8']);
    expect(() => parseConfig({ RECIPE_IMPORT_ALLOWED_NETWORKS: '10.1.2.3' })).toThrow(
      /RECIPE_IMPORT_ALLOWED_NETWORKS/,
    );
  });
});

describe('deny by default', () => {
  it('refuses to start when a route declares no auth', async () => {
    await expect(
      startTestApp({}, ({ app }) => {
        app.get('/api/test/undeclared', async () => ({ secret: true }));
      }),
    ).rejects.toThrow(/GET \/api\/test\/undeclared declares no auth/);
  });
});

describe('configuration', () => {
  it('refuses to start in production without JWT_SECRET, naming the setting', () => {
    expect(() => parseConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => parseConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET/);
  });

  it('names each bad setting', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ IMAGE_GEN_URL: 'ftp://x' })).toThrow(/IMAGE_GEN_URL/);
    expect(() => parseConfig({ SEARCH_INDEX_BUDGET_MB: '0' })).toThrow(/SEARCH_INDEX_BUDGET_MB/);
    expect(parseConfig({ SEARCH_INDEX_BUDGET_MB: '64' }).searchIndexBudgetBytes).toBe(64 * 1024 * 1024);
    // The index's budget must fit in the process's heap limit (npm start's is 1,072 MB in all).
    const startHeap = 1072 * 1024 * 1024;
    expect(() => checkHeapHoldsSearchIndex(parseConfig({}), startHeap)).not.toThrow();
    expect(() =>
      checkHeapHoldsSearchIndex(parseConfig({ SEARCH_INDEX_BUDGET_MB: '1024' }), startHeap),
    ).toThrow(
      /SEARCH_INDEX_BUDGET_MB: 1024 MB of search index needs a heap limit of at least 1536 MB, and this process has 1072 MB/,
    );
  });

  it('applies the contract defaults', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: './data',
      uploadMaxBytes: 20 * 1024 * 1024,
    });
    expect(config.llm.recipeModel).toBeUndefined();
    expect(parseConfig({ CHAT_MODEL: 'm' }).llm.recipeModel).toBe('m');
    expect(parseConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) }).cookieSecure).toBe(true);
  });
});

describe('CORS_ORIGINS', () => {
  it('lets only the listed browser origins call the API with credentials; none without the setting', async () => {
    const listed = await startTestApp({ CORS_ORIGINS: 'https://app.example, https://admin.example/' });
    try {
      const preflight = await fetch(`${listed.baseUrl}/api/recipes`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
      const get = await fetch(`${listed.baseUrl}/api/health`, {
        headers: { origin: 'https://admin.example' },
      });
      expect(get.headers.get('access-control-allow-origin')).toBe('https://admin.example');
      const evil = await fetch(`${listed.baseUrl}/api/health`, {
        headers: { origin: 'https://evil.example' },
      });
      expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await listed.close();
    }
    const plain = await fetch(`${ctx.baseUrl}/api/health`, { headers: { origin: 'https://app.example' } });
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    expect(() => parseConfig({ CORS_ORIGINS: '*' })).toThrow(/CORS_ORIGINS/);
    expect(() => parseConfig({ CORS_ORIGINS: 'https://app.example/path' })).toThrow(/CORS_ORIGINS/);
  });
});
