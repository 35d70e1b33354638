import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import pg from 'pg';

/**
 * One query layer (kysely) over either engine. Kysely's own PGlite dialect serialises access to
 * the single PGlite connection and runs transactions in PGlite's exclusive mode, so concurrent
 * requests cannot interleave inside a transaction (the trap noted in the stack notes).
 *
 * Repositories type their handle with their own module's tables: `Kysely<ModuleTables>`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;

export interface DatabaseHandle {
  db: AnyDb;
  kind: 'pglite' | 'postgres';
  /** The embedded instance, for code (the job queue) that needs a raw channel. */
  pglite?: PGlite;
  /** The server pool, for code that needs a raw channel. */
  pool?: pg.Pool;
  /** The search_path schema in use on PostgreSQL (tests isolate themselves in one). */
  schema: string;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const OID = { INT8: 20, NUMERIC: 1700, DATE: 1082 } as const;

/** Dates stay `YYYY-MM-DD` strings (no time-zone shifts); counts and numerics become numbers. */
const parsers: Record<number, (value: string) => unknown> = {
  [OID.INT8]: (v) => Number(v),
  [OID.NUMERIC]: (v) => Number(v),
  [OID.DATE]: (v) => v,
};

export interface DatabaseOptions {
  /** PostgreSQL URL; undefined selects embedded PGlite. */
  url?: string | undefined;
  /** PGlite data directory; undefined keeps the embedded database in memory (tests). */
  dataDir?: string | undefined;
  /** PostgreSQL schema to use as search_path (created when missing). */
  schema?: string;
  poolSize?: number;
  /**
   * statement_timeout of every pooled PostgreSQL connection (ms; 0 or unset = none): a runaway
   * query is cancelled (SQLSTATE 57014) instead of holding a connection. Work that may run longer
   * (migrations, flyer jobs) lifts it for its own transaction or session. PGlite does not enforce it.
   */
  statementTimeoutMs?: number | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.url ? openPostgres(options.url, options) : openPGlite(options.dataDir);
}

async function openPGlite(dataDir: string | undefined): Promise<DatabaseHandle> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create({
    ...(dataDir ? { dataDir: path.resolve(dataDir) } : {}),
    extensions: { pg_trgm },
    parsers,
  });
  const db = new Kysely({ dialect: new PGliteDialect({ pglite }) });
  return {
    db,
    kind: 'pglite',
    pglite,
    schema: 'public',
    ping: () => ping(db),
    close: () => db.destroy(),
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<DatabaseHandle> {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    ...(startupOptions(schema, options.statementTimeoutMs) ?? {}),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        parsers[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A dropped server connection must not crash the process: idle clients report through the pool,
  // checked-out ones through their own 'error' event (the failing query rejects anyway).
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  if (schema !== 'public') await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  return {
    db,
    kind: 'postgres',
    pool,
    schema,
    ping: () => ping(db),
    close: () => db.destroy(),
  };
}

function startupOptions(
  schema: string,
  statementTimeoutMs: number | undefined,
): { options: string } | undefined {
  const parts: string[] = [];
  if (schema !== 'public') parts.push(`-c search_path=${schema},public`);
  if (statementTimeoutMs) parts.push(`-c statement_timeout=${Math.trunc(statementTimeoutMs)}`);
  return parts.length > 0 ? { options: parts.join(' ') } : undefined;
}

async function ping(db: AnyDb): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
