import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

/** The recipe a session is about: pinned by a message's recipe_id, kept until another (or null) is sent. */
export async function up(db: AnyDb): Promise<void> {
  await sql`
    alter table chat_sessions
      add column pinned_recipe_id uuid references recipes(id) on delete set null`.execute(db);
}
