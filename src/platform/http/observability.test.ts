import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { parseConfig } from '../config.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';
import { closeWithJobs, flyerForm, rowFlyer, TEST_QUEUE, waitFor } from '../../../test/support/flyers.ts';
import { startFakeLlm, type FakeLlm } from '../../../test/support/llm-fakes.ts';

const METRICS_TOKEN = 'metrics-token-for-the-tests';

/** The Prometheus sample of `name` whose labels include every pair of `labels`; undefined if none. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const ok = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (ok) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('metrics, readiness and model spend', () => {
  let fake: FakeLlm;
  let ctx: TestApp;
  let api: Api;
  let cook: TestUser;
  let heavy: TestUser;
  let admin: TestUser;
  const scrape = () => api('GET', '/api/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });

  beforeAll(async () => {
    fake = await startFakeLlm('openai');
    ctx = await startTestApp({
      METRICS_TOKEN,
      LLM_BASE_URL: fake.baseUrl,
      LLM_API_KEY: 'sk-test',
      CHAT_MODEL: 'test-chat',
      // $2 per million input tokens, $8 per million output tokens.
      MODEL_PRICES: 'test-chat=2/8',
      RATE_LIMIT_MAX: '40',
    });
    api = client(ctx.baseUrl);
    cook = await createUser(ctx, { tier: 'pro' });
    heavy = await createUser(ctx, { tier: 'pro' });
    admin = await createUser(ctx, { admin: true });
  });
  afterAll(async () => {
    if (ctx) await closeWithJobs(ctx);
    await fake?.close();
  });

  it('answers 401 with WWW-Authenticate without the token or with a wrong one', async () => {
    const none = await api('GET', '/api/metrics');
    expectProblem(none, 401, 'unauthorized');
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    const wrong = await api('GET', '/api/metrics', {
      headers: { authorization: 'Bearer not-the-token-at-all!' },
    });
    expectProblem(wrong, 401, 'unauthorized');
    // A user's access token is not the metrics token either.
    expectProblem(await api('GET', '/api/metrics', { token: cook.token }), 401, 'unauthorized');
  });

  it('counts requests by route pattern and status, with latency', async () => {
    await api('GET', '/api/me', { token: cook.token });
    await api('GET', '/api/me', { token: cook.token });
    await api('GET', '/api/recipes/00000000-0000-4000-8000-000000000001', { token: cook.token });
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const route = { method: 'GET', route: '/api/me', status: '200' };
    expect(sample(res.text, 'mise_http_requests_total', route)).toBeGreaterThanOrEqual(2);
    expect(sample(res.text, 'mise_http_request_duration_seconds_count', route)).toBeGreaterThanOrEqual(2);
    // The pattern, never the id: labels stay bounded whatever the URLs.
    expect(sample(res.text, 'mise_http_requests_total', { route: '/api/recipes/:id', status: '404' })).toBe(
      1,
    );
    expect(res.text).not.toContain('00000000-0000-4000-8000-000000000001');
    expect(res.text).toContain('mise_process_resident_memory_bytes');
  });

  it('reports flyer and image jobs and the job queues from the database', async () => {
    const store = await api('POST', '/api/admin/stores', {
      token: admin.token,
      body: { name: 'Metrics Market', logo_url: 'https://example.test/logo.png' },
    });
    expect(store.status).toBe(201);
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }), 'f.pdf');
    const upload = await api('POST', `/api/admin/stores/${store.body.id}/promotions/upload`, {
      token: admin.token,
      rawBody: form,
    });
    expect(upload.status).toBe(202);
    const text = (await scrape()).text;
    expect(sample(text, 'mise_flyer_jobs', { status: 'pending' })).toBe(1);
    expect(sample(text, 'mise_jobs', { state: 'created' })).toBeGreaterThanOrEqual(1);
    expect(text).toContain('# TYPE mise_image_jobs gauge');
    if (ctx.database.pool)
      expect(sample(text, 'mise_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
  });

  it('reports where searches are answered: PostgreSQL while the index loads, then the index and its size', async () => {
    const shared = await sql<{ n: number }>`
      select count(*)::int as n from recipes where owner_id is null or is_public`.execute(ctx.database.db);
    expect((await api('GET', '/api/recipes?q=soup')).status).toBe(200); // starts the load
    const held = await waitFor(async () => {
      const text = (await scrape()).text;
      return sample(text, 'mise_search_index_recipes', { mode: 'memory' });
    });
    expect(held).toBe(shared.rows[0]!.n);
  });

  it('counts model calls, tokens and estimated cost per feature, and stores spend per user and day', async () => {
    fake.script({ text: 'Try a soup.', usage: { input: 1000, output: 500 } });
    expect((await api('POST', '/api/chat', { token: cook.token, body: { message: 'dinner?' } })).status).toBe(
      200,
    );
    for (let i = 0; i < 3; i++) {
      fake.script({ text: 'More soup.', usage: { input: 10_000, output: 2_000 } });
      expect(
        (await api('POST', '/api/chat', { token: heavy.token, body: { message: `again ${i}` } })).status,
      ).toBe(200);
    }
    const text = (await scrape()).text;
    expect(
      sample(text, 'mise_model_calls_total', { feature: 'chat', model: 'test-chat', outcome: 'ok' }),
    ).toBe(4);
    expect(sample(text, 'mise_model_tokens_total', { feature: 'chat', direction: 'input' })).toBe(31_000);
    expect(sample(text, 'mise_model_tokens_total', { feature: 'chat', direction: 'output' })).toBe(6_500);
    // 31,000 × $2/M + 6,500 × $8/M = $0.062 + $0.052
    expect(sample(text, 'mise_model_cost_usd_total', { feature: 'chat' })).toBeCloseTo(0.114, 6);

    const report = await api('GET', '/api/admin/spend?days=1', { token: admin.token });
    expect(report.status).toBe(200);
    expect(report.body.totals).toEqual({
      calls: 4,
      input_tokens: 31_000,
      output_tokens: 6_500,
      cost_usd: 0.114,
    });
    expect(report.body.by_feature).toEqual([
      { feature: 'chat', calls: 4, input_tokens: 31_000, output_tokens: 6_500, cost_usd: 0.114 },
    ]);
    expect(report.body.by_day).toHaveLength(1);
    expect(report.body.by_day[0].day).toBe(report.body.to);
    expect(report.body.top_users.map((u: { email: string }) => u.email)).toEqual([heavy.email, cook.email]);
    expect(report.body.top_users[0]).toMatchObject({
      user_id: heavy.user.id,
      tier: 'pro',
      calls: 3,
      cost_usd: 0.108,
    });
    const top = await api('GET', '/api/admin/spend?days=1&limit=1', { token: admin.token });
    expect(top.body.top_users).toHaveLength(1);
  });

  it("counts the flyer reader's model calls under feature flyer, outside the per-user spend", async () => {
    const worker = await ctx.services.startFlyerWorker({ queue: TEST_QUEUE });
    try {
      const store = await api('POST', '/api/admin/stores', {
        token: admin.token,
        body: { name: 'Model Market', logo_url: 'https://example.test/logo.png' },
      });
      const upload = await api('POST', `/api/admin/stores/${store.body.id}/promotions/upload`, {
        token: admin.token,
        rawBody: flyerForm((await rowFlyer()).bytes),
      });
      expect(upload.status).toBe(202);
      // Polled through the service, not HTTP: the admin's requests count against RATE_LIMIT_MAX here.
      await waitFor(async () => {
        const [job] = await ctx.services.stores.listJobs(store.body.id);
        return job?.status === 'completed' ? true : undefined;
      }, 60_000);
    } finally {
      await worker.stop();
    }
    const text = (await scrape()).text;
    expect(
      sample(text, 'mise_model_calls_total', { feature: 'flyer', model: 'test-chat' }),
    ).toBeGreaterThanOrEqual(1);
    const report = await api('GET', '/api/admin/spend?days=1', { token: admin.token });
    expect(report.body.by_feature.map((f: { feature: string }) => f.feature)).not.toContain('flyer');
  });

  it('keeps the spend report for admins and checks its parameters', async () => {
    expectProblem(await api('GET', '/api/admin/spend', { token: cook.token }), 403, 'forbidden');
    expectProblem(await api('GET', '/api/admin/spend'), 401, 'unauthorized');
    expectProblem(
      await api('GET', '/api/admin/spend?days=0', { token: admin.token }),
      400,
      'validation_error',
    );
    expectProblem(
      await api('GET', '/api/admin/spend?days=abc', { token: admin.token }),
      400,
      'validation_error',
    );
  });

  it('counts rate-limit refusals by route', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) statuses.push((await api('GET', '/api/me', { token: heavy.token })).status);
    expect(statuses).toContain(429);
    const text = (await scrape()).text;
    expect(sample(text, 'mise_rate_limit_refusals_total', { route: '/api/me' })).toBe(
      statuses.filter((s) => s === 429).length,
    );
  });

  it('is not ready while a migration is pending, then ready once it has run', async () => {
    // Another instance is mid-way: the newest migration is not recorded yet.
    const table = sql.id(ctx.database.schema, 'kysely_migration');
    const newest = await sql<{ name: string; timestamp: string }>`
      select name, timestamp from ${table} order by name desc limit 1`.execute(ctx.database.db);
    const row = newest.rows[0]!;
    await sql`delete from ${table} where name = ${row.name}`.execute(ctx.database.db);
    try {
      const waiting = await api('GET', '/api/health/ready');
      expectProblem(waiting, 503, 'service_unavailable');
      expect(waiting.body.detail).toMatch(/migrations/);
      // Liveness is unaffected.
      expect((await api('GET', '/api/health')).status).toBe(200);
    } finally {
      await sql`insert into ${table} (name, timestamp) values (${row.name}, ${row.timestamp})`.execute(
        ctx.database.db,
      );
    }
    expect((await api('GET', '/api/health/ready')).body).toEqual({ status: 'ready' });
  });
});

describe('metrics without METRICS_TOKEN', () => {
  it('are off: 404 whatever the caller sends', async () => {
    const ctx = await startTestApp();
    try {
      const api = client(ctx.baseUrl);
      expectProblem(await api('GET', '/api/metrics'), 404, 'not_found');
      expectProblem(
        await api('GET', '/api/metrics', { headers: { authorization: 'Bearer x' } }),
        404,
        'not_found',
      );
    } finally {
      await ctx.close();
    }
  });

  it('a METRICS_TOKEN too short to be a secret stops the service at start', () => {
    expect(() => parseConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });

  it('a malformed MODEL_PRICES stops the service at start', () => {
    expect(() => parseConfig({ MODEL_PRICES: 'gpt-4o=cheap' })).toThrow(/MODEL_PRICES/);
    expect(parseConfig({ MODEL_PRICES: 'gpt-4o-mini=0.15/0.6, *=1/3' }).modelPrices.get('*')).toEqual({
      input: 1,
      output: 3,
    });
  });
});
