import { sql } from 'kysely';
import type { AnyDb } from '../database.ts';

/**
 * Uploaded files (flyers) and what is derived from them (page pictures), in the database that every
 * instance and worker host shares: a worker on another machine reads what an API instance stored.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`
    create table stored_files (
      key text primary key,
      bytes bytea not null,
      size integer not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}
