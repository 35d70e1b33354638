import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

/**
 * The shared recipes (catalog and public) by id: what the in-memory search index counts against its
 * budget and loads in batches at an instance's first search, without reading the private ones.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`create index recipes_shared_idx on recipes (id) where owner_id is null or is_public`.execute(db);
}
