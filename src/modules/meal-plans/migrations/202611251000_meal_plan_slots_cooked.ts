import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

/** When a completed slot was counted as cooking (pantry, history, taste): once per slot. */
export async function up(db: AnyDb): Promise<void> {
  await sql`alter table meal_plan_slots add column cooked_at timestamptz`.execute(db);
}
