import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { AnyDb } from './database.ts';

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

export async function migrateToLatest(db: AnyDb, schema = 'public'): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: new ModuleMigrationProvider(),
    ...(schema !== 'public' ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
