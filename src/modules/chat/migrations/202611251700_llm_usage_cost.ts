import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

/**
 * Estimated cost of each day's model calls (MODEL_PRICES at the time of the call, so a later price
 * change does not rewrite history), and the day index the operators' spend report reads by.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`alter table llm_usage add column cost_usd numeric(14, 6) not null default 0`.execute(db);
  await sql`create index llm_usage_day_idx on llm_usage (day)`.execute(db);
}
