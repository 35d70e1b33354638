import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flyerForm, multiPageFlyer } from './support/flyers.ts';
import { startFakeLlm, type FakeLlm } from './support/llm-fakes.ts';
import { startServiceProcess, type ServiceProcess } from './support/processes.ts';

/**
 * Two service processes on one PostgreSQL database and one Redis: what a production deployment
 * behind a load balancer relies on. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (CI).
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const enabled = Boolean(databaseUrl && redisUrl);
if (!enabled) console.warn('multi-instance tests skipped: set TEST_DATABASE_URL and TEST_REDIS_URL');

let admin: pg.Client;
let dbName: string;
let model: FakeLlm;
const ADMIN = 'multi-admin@example.test';

async function call(
  target: ServiceProcess,
  method: string,
  path: string,
  init: { token?: string; body?: unknown; form?: FormData } = {},
) {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(target.url + path, {
    method,
    headers,
    body: init.form ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function userToken(email: string): Promise<string> {
  await call(instances[0]!, 'POST', '/api/auth/register', {
    body: { email, password: 'password123', name: 'Multi' },
  });
  return (await call(instances[1]!, 'POST', '/api/auth/login', { body: { email, password: 'password123' } }))
    .body.access_token;
}
const instances: ServiceProcess[] = [];

describe.skipIf(!enabled)('two instances on one PostgreSQL and Redis', () => {
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    dbName = `mise_multi_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${dbName}`);
    const url = new URL(databaseUrl!);
    url.pathname = `/${dbName}`;
    model = await startFakeLlm('openai');
    const env = {
      DATABASE_URL: url.toString(),
      LLM_BASE_URL: model.baseUrl,
      LLM_API_KEY: 'test',
      CHAT_MODEL: 'fake-model',
      ADMIN_EMAILS: ADMIN,
      // The service creates the admin account at start; registering it answers 409, login works.
      ADMIN_PASSWORD: 'password123',
      REDIS_URL: redisUrl!,
      RATE_LIMIT_MAX: '1000',
      AUTH_RATE_LIMIT_MAX: '10',
      // This test is the proxy in front of both instances: it names the client in X-Forwarded-For.
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_WINDOW: '1 minute',
      JWT_SECRET: 'multi-instance-secret-multi-instance-secret',
      DATA_DIR: `/tmp/mise-multi-${dbName}`,
      SEED_CATALOG: 'false',
    };
    // Sequential start: the first runs the migrations, the second finds them applied.
    instances.push(await startServiceProcess(env));
    instances.push(await startServiceProcess(env));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await model?.close();
    if (admin) {
      await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
      await admin.end();
    }
  });

  it('shares rate-limit counters: the 11th registration from one address is limited, whichever instance gets it', async () => {
    // A distinct client address per test run (named by this test, the trusted proxy), so other runs
    // sharing this Redis do not interfere.
    const client = `10.${[1, 2, 3].map(() => Math.floor(Math.random() * 250)).join('.')}`;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const target = instances[i % 2]!;
      const res = await fetch(`${target.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'x-forwarded-for': client, 'content-type': 'application/json' },
        body: JSON.stringify({ email: `rl${i}-${dbName}@example.test`, password: 'password123', name: 'R' }),
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('keeps the Free chat limit exact across instances: 20 messages at once, 10 answered', async () => {
    const token = await userToken(`chat-${dbName}@example.test`);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(instances[i % 2]!, 'POST', '/api/chat', { token, body: { message: `hello ${i}` } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(10).fill(429)]);
    expect(results.filter((r) => r.status === 429).every((r) => r.body.code === 'chat_daily_limit')).toBe(
      true,
    );
  });

  it('processes each flyer job exactly once when both instances run workers', async () => {
    const token = await userToken(ADMIN);
    const store = await call(instances[0]!, 'POST', '/api/admin/stores', {
      token,
      body: { name: `Multi ${dbName}`, logo_url: 'https://example.com/logo.png' },
    });
    expect(store.status).toBe(201);
    const jobIds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const flyer = await multiPageFlyer(3, `Batch${i}`);
      const upload = await call(
        instances[i % 2]!,
        'POST',
        `/api/admin/stores/${store.body.id}/promotions/upload`,
        {
          token,
          form: flyerForm(flyer.bytes),
        },
      );
      expect(upload.status).toBe(202);
      jobIds.push(upload.body.job_id);
    }
    const deadline = Date.now() + 90_000;
    let jobs: { id: string; status: string; candidates_extracted: number }[] = [];
    while (Date.now() < deadline) {
      jobs = (await call(instances[0]!, 'GET', `/api/admin/stores/${store.body.id}/jobs`, { token })).body
        .jobs;
      if (jobs.length === 4 && jobs.every((j) => j.status === 'completed' || j.status === 'failed')) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(jobs.map((j) => j.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    for (const jobId of jobIds) {
      const candidates = await call(
        instances[1]!,
        'GET',
        `/api/admin/stores/${store.body.id}/candidates?job_id=${jobId}`,
        { token },
      );
      // Exactly the three offers of that flyer: a job run twice would have left duplicates.
      expect(candidates.body.total).toBe(3);
      expect(jobs.find((j) => j.id === jobId)!.candidates_extracted).toBe(3);
    }
  }, 120_000);
});
