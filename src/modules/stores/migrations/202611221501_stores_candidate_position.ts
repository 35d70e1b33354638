import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  // Reading order of a candidate on its page, so that review lists follow the flyer.
  await sql`alter table promotions add column position integer not null default 0`.execute(db);
}
