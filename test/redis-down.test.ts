import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.ts';
import { client, expectProblem } from './support/http.ts';

/** REDIS_URL set but Redis unreachable: requests still succeed, limits fall back to this instance. */
let ctx: TestApp;
beforeAll(async () => {
  ctx = await startTestApp({ REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_MAX: '3' });
});
afterAll(() => ctx.close());

describe('Redis down while REDIS_URL is set', () => {
  it('never answers 500 and keeps limiting with local counters', async () => {
    const api = client(ctx.baseUrl);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await api('GET', '/api/health')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expectProblem(await api('GET', '/api/health'), 429, 'rate_limited');
  });
});
