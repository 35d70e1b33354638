import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

/** Where on its page a candidate was read ({x, y, width, height} in PDF points, top-left origin). */
export async function up(db: AnyDb): Promise<void> {
  await sql`alter table promotions add column box jsonb`.execute(db);
}
