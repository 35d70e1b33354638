import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

/**
 * A candidate read from a PDF's text layer alone (no OCR, no model): its price is as printed, so
 * the job's outlier rule, made for misreadings, leaves it listed. Earlier candidates count as read.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`alter table promotions add column from_text_layer boolean not null default false`.execute(db);
}
