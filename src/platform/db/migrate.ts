import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { AnyDb } from './database.ts';
import { withSchemaIntrospection } from './schema-introspector.ts';

/**
 * Migrations live beside the code that owns the tables: `src/platform/db/migrations/*.ts` and
 * `src/modules/<domain>/migrations/*.ts`. Names start with a timestamp (YYYYMMDDHHMM_...), so they
 * sort globally in the order they were written, whichever module they belong to.
 */
const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function migrationFiles(): string[] {
  const dirs = [path.join(srcDir, 'platform/db/migrations')];
  const modulesDir = path.join(srcDir, 'modules');
  for (const mod of readdirSync(modulesDir)) dirs.push(path.join(modulesDir, mod, 'migrations'));
  return dirs
    .filter((d) => existsSync(d))
    .flatMap((d) =>
      readdirSync(d)
        .filter((f) => /^\d{12}_.+\.ts$/.test(f))
        .map((f) => path.join(d, f)),
    );
}

class ModuleMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const file of migrationFiles()) {
      const name = path.basename(file, '.ts');
      if (out[name]) throw new Error(`duplicate migration name ${name}`);
      out[name] = (await import(pathToFileURL(file).href)) as Migration;
    }
    return out;
  }
}

/**
 * Runs on one connection with the statement timeout lifted (a long index build must not be
 * cancelled by DB_STATEMENT_TIMEOUT_MS), then resets it for the pool.
 */
export async function migrateToLatest(db: AnyDb, schema = 'public'): Promise<void> {
  await db.connection().execute(async (connection) => {
    await sql`set statement_timeout = 0`.execute(connection);
    try {
      await migrate(connection, schema);
    } finally {
      await sql`reset statement_timeout`.execute(connection);
    }
  });
}

/**
 * The migrator looks only at its own schema (SchemaIntrospector), so other schemas coming and going
 * do not concern it. Two instances starting at once can still race creating the migrator's own
 * tables (42P07, or 42703 reading a table the other is half-way through): such a failure before any
 * migration ran is retried; a failing migration never is.
 */
const INTROSPECTION_ATTEMPTS = 10;

async function migrate(db: AnyDb, schema: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migratorFor(db, schema).migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (!error && !failed) return;
    if (!failed && attempt < INTROSPECTION_ATTEMPTS && isVanishedSchema(error)) {
      await new Promise((resolve) => setTimeout(resolve, 25 * attempt)); // let the drop settle
      continue;
    }
    const reason = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}

/** What such a race fails with: 3F000/42P01 a schema or table gone, 42703 a column, 42P07 a table. */
const LOOK_AROUND_RACES = new Set(['3F000', '42P01', '42703', '42P07']);

function isVanishedSchema(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && LOOK_AROUND_RACES.has(code);
}

/**
 * Names of this code's migrations the database has not run yet: while another instance migrates
 * (or before this one has), the schema is not the one the code expects.
 */
export async function pendingMigrations(db: AnyDb, schema = 'public'): Promise<string[]> {
  const all = await migratorFor(db, schema).getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

function migratorFor(db: AnyDb, schema: string): Migrator {
  return new Migrator({
    db: withSchemaIntrospection(db, schema),
    provider: new ModuleMigrationProvider(),
    ...(schema !== 'public' ? { migrationTableSchema: schema } : {}),
  });
}
