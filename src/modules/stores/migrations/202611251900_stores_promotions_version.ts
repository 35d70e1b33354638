import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

/**
 * A counter bumped with every change to a store's live promotions (beside promotions_changed_at,
 * whose timestamps two instances with skewed clocks could write out of order): pricing caches
 * compare the sum over all stores.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`alter table stores add column promotions_version bigint not null default 0`.execute(db);
}
