import { sql } from 'kysely';
import type { AnyDb } from '../database.ts';

export async function up(db: AnyDb): Promise<void> {
  // Trigram similarity backs product-to-ingredient matching and fuzzy search. The extension lives
  // in `public`, shared by every schema of the database: created in an isolated schema (tests,
  // benchmarks) it would vanish, with every trigram index of every other schema, when that schema
  // is dropped.
  await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  const placed = await sql<{ visible: boolean }>`
    select e.extnamespace = any (
      select oid from pg_namespace where nspname = any (current_schemas(false))
    ) as visible
    from pg_extension e where e.extname = 'pg_trgm'`.execute(db);
  // Installed earlier where this schema cannot see it (another isolated schema): move it to public.
  if (placed.rows[0]?.visible === false) await sql`alter extension pg_trgm set schema public`.execute(db);
}
