import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  // A running flyer job beats every few seconds; a silent one belongs to a dead worker and is rescued.
  await sql`alter table promotion_jobs add column heartbeat_at timestamptz`.execute(db);
  await sql`create index promotion_jobs_processing_idx on promotion_jobs (heartbeat_at) where status = 'processing'`.execute(
    db,
  );
}
