import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import { parseConfig, type Config } from '../../src/platform/config.ts';
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';
export const ADMIN_EMAIL = 'admin@example.test';
/** The service creates ADMIN_EMAIL at start with this password (ADMIN_PASSWORD). */
export const ADMIN_PASSWORD = 'admin-password-for-tests';

export interface TestApp extends BuiltApp {
  baseUrl: string;
  config: Config;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/**
 * A real service on a random loopback port over a real database: embedded PGlite in memory by
 * default, or a fresh schema on the PostgreSQL server named by TEST_DATABASE_URL.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  configure?: (built: BuiltApp) => void | Promise<void>,
  options: { now?: () => Date } = {},
): Promise<TestApp> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const schema = serverUrl ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const statementTimeoutMs = env.DB_STATEMENT_TIMEOUT_MS ? Number(env.DB_STATEMENT_TIMEOUT_MS) : undefined;
  const database = await openDatabase(
    serverUrl ? { url: serverUrl, schema: schema!, poolSize: 5, statementTimeoutMs } : {},
  );
  await migrateToLatest(database.db, database.schema);
  const config = parseConfig({
    NODE_ENV: 'test',
    RATE_LIMIT_MAX: '100000',
    AUTH_RATE_LIMIT_MAX: '100000',
    ADMIN_EMAILS: ADMIN_EMAIL,
    ADMIN_PASSWORD,
    SEED_CATALOG: 'false',
    RUN_WORKERS: 'false',
    DATA_DIR: `/tmp/mise-test-${randomBytes(4).toString('hex')}`,
    ...env,
  });
  const built = await buildApp({
    config,
    database,
    jwtSecret: TEST_JWT_SECRET,
    logger: false,
    ...(options.now ? { now: options.now } : {}),
  });
  await configure?.(built);
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const address = built.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    ...built,
    config,
    database,
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      await built.app.close();
      if (schema) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db);
      await database.close();
    },
  };
}
