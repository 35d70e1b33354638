import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.ts';
import { client, expectProblem } from './support/http.ts';

let ctx: TestApp;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.app.close();
});

describe('GET /api/health when the database does not answer', () => {
  it('answers 503 as a problem document, not 200 and not 500', async () => {
    const api = client(ctx.baseUrl);
    expect((await api('GET', '/api/health')).status).toBe(200);
    if (ctx.database.schema !== 'public') {
      await sql`drop schema ${sql.id(ctx.database.schema)} cascade`.execute(ctx.database.db);
    }
    await ctx.database.close();
    const res = await api('GET', '/api/health');
    expect(expectProblem(res, 503, 'service_unavailable').detail).toMatch(/database/i);
  });
});
