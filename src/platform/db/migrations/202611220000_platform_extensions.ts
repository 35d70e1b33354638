import { sql } from 'kysely';
import type { AnyDb } from '../database.ts';

export async function up(db: AnyDb): Promise<void> {
  // Trigram similarity backs product-to-ingredient matching and fuzzy search.
  await sql`create extension if not exists pg_trgm`.execute(db);
}
