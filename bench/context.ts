import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { buildApp, type BuiltApp } from '../src/app.ts';
import { parseConfig } from '../src/platform/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/platform/db/database.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { load, rawServer, type BenchRow, type LoadOptions, type LoadResult } from './lib.ts';

export interface BenchContext {
  quick: boolean;
  databaseKind: 'pglite' | 'postgres';
  database: DatabaseHandle;
  built: BuiltApp;
  baseUrl: string;
  /** Bare Fastify route in the same process: the framework's own ceiling. */
  bareUrl: string;
  connections: number;
  durationSeconds: number;
  /** Load at 50 connections for durationSeconds, after an unrecorded warm-up (warmupSeconds, 1). */
  measure(url: string, options?: Partial<LoadOptions> & { warmupSeconds?: number }): Promise<LoadResult>;
  /** The raw driver (pg Pool or PGlite) running SQL, no query builder, no framework. */
  rawQuery(text: string, params: unknown[]): Promise<unknown[]>;
  /** Serves the raw driver's answer to `handler` over HTTP, for a like-for-like reference. */
  rawEndpoint: typeof rawServer;
  row(partial: Omit<BenchRow, 'database'>): BenchRow;
  /**
   * After a bulk seed: the seed's dirty pages written, autovacuum finished, the seed's garbage
   * collected, so that the first case measured does not pay for them.
   */
  settle(): Promise<void>;
  /**
   * Another instance of the service on the same database with settings added (e.g. LLM_BASE_URL
   * of a loopback model), listening on its own port; tokens signed by `built` are valid there.
   */
  startApp(
    env: Record<string, string>,
  ): Promise<{ baseUrl: string; built: BuiltApp; close(): Promise<void> }>;
}

export async function createBenchContext(
  quick: boolean,
): Promise<{ ctx: BenchContext; close(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  const schema = url ? `bench_${randomBytes(4).toString('hex')}` : undefined;
  const database = await openDatabase(url ? { url, schema: schema!, poolSize: 10 } : {});
  await migrateToLatest(database.db, database.schema);
  const benchEnv = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '100000000',
    AUTH_RATE_LIMIT_MAX: '100000000',
    SEED_CATALOG: 'false',
    RUN_WORKERS: 'false',
    DATA_DIR: `/tmp/mise-bench-${randomBytes(4).toString('hex')}`,
  };
  const jwtSecret = 'bench-secret-bench-secret-bench-secret!!';
  const build = (env: Record<string, string>) =>
    buildApp({ config: parseConfig({ ...benchEnv, ...env }), database, jwtSecret, logger: false });
  const built = await build({});
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const bare = Fastify({ logger: false });
  bare.get('/hello', async () => ({ hello: 'world' }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const portOf = (s: typeof bare.server) => (s.address() as { port: number }).port;

  const connections = 50;
  const durationSeconds = quick ? 2 : 10;
  const databaseKind = database.kind;
  const ctx: BenchContext = {
    quick,
    databaseKind,
    database,
    built,
    baseUrl: `http://127.0.0.1:${portOf(built.app.server)}`,
    bareUrl: `http://127.0.0.1:${portOf(bare.server)}/hello`,
    connections,
    durationSeconds,
    // Every case is warmed first (JIT, connection pools, caches), unrecorded.
    measure: async (target, { warmupSeconds = 1, ...options } = {}) => {
      if (warmupSeconds > 0) await load(target, { connections, ...options, durationSeconds: warmupSeconds });
      return load(target, { connections, durationSeconds, ...options });
    },
    rawQuery: async (text, params) => {
      if (database.pool) return (await database.pool.query(text, params)).rows;
      return (await database.pglite!.query(text, params)).rows;
    },
    rawEndpoint: rawServer,
    settle: async () => {
      if (database.pool) {
        await database.pool.query('checkpoint');
        for (let waited = 0; waited < 60_000; waited += 500) {
          const { rows } = await database.pool.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity where backend_type = 'autovacuum worker'`,
          );
          if (rows[0]!.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
      (globalThis as { gc?: () => void }).gc?.();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    },
    row: (partial) => ({ ...partial, database: databaseKind }),
    startApp: async (env) => {
      const extra = await build(env);
      await extra.app.listen({ port: 0, host: '127.0.0.1' });
      return {
        baseUrl: `http://127.0.0.1:${portOf(extra.app.server)}`,
        built: extra,
        close: () => extra.app.close(),
      };
    },
  };
  return {
    ctx,
    close: async () => {
      await bare.close();
      await built.app.close();
      // BENCH_KEEP_SCHEMA=1 keeps the seeded schema for EXPLAIN sessions (drop it yourself).
      if (schema && process.env.BENCH_KEEP_SCHEMA !== '1') {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db);
      } else if (schema) console.error(`kept schema ${schema}`);
      await database.close();
    },
  };
}
