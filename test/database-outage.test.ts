import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/platform/db/outage.ts';
import { registerErrorHandling } from '../src/platform/http/error-handler.ts';

async function errorOf(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to fail');
}

describe('database outage errors', () => {
  const app = Fastify();
  let thrown: unknown;
  registerErrorHandling(app);
  app.get('/boom', () => {
    throw thrown;
  });
  afterAll(() => app.close());

  it('a refused connection answers 503 service_unavailable with Retry-After, not 500', async () => {
    const refused = await errorOf(() =>
      new pg.Client({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2_000 }).connect(),
    );
    expect(isDatabaseUnavailable(refused)).toBe(true);
    thrown = refused;
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toMatchObject({ status: 503, code: 'service_unavailable' });
  });

  it('a query error is not mistaken for an outage', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'a backend terminated by the server (restart) counts as an outage',
    async () => {
      const url = process.env.TEST_DATABASE_URL!;
      const victim = new pg.Client({ connectionString: url });
      victim.on('error', () => undefined);
      await victim.connect();
      const pid = (await victim.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await admin.end();
      const terminated = await errorOf(() => victim.query('select 1'));
      expect(isDatabaseUnavailable(terminated)).toBe(true);
      await victim.end().catch(() => undefined);
    },
  );
});
