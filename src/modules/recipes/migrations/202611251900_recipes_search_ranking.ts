import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

/**
 * For searches PostgreSQL answers (private recipes by owner, and every search once the shared
 * recipes outgrow the in-memory index's budget):
 * - titles in byte order, the order a search without words pages by (the index compares code
 *   units, which the "C" collation matches where the database's own collation may not);
 * - where the RUM extension is installed (Debian: postgresql-15-rum), a RUM index over the
 *   full-text vector, whose `<=>` distance orders a one-word search by ts_rank from the index
 *   itself instead of ranking every match on the heap. Without it searches rank with ts_rank.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`create index recipes_title_bytes_idx on recipes ((title collate "C"), id)`.execute(db);
  const rum = await sql<{ name: string }>`
    select name from pg_available_extensions where name = 'rum'`.execute(db);
  if (rum.rows.length === 0) return;
  // In public, shared by every schema of the database (as pg_trgm, see the platform extensions).
  await sql`create extension if not exists rum with schema public`.execute(db);
  await sql`create index recipes_search_rum_idx on recipes using rum (search rum_tsvector_ops)`.execute(db);
}
