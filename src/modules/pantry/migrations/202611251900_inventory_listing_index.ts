import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

/**
 * The pantry listing's order (soonest expiry first, undated last) per user: a page is read from the
 * index and stops at its end, and the counts read the index alone.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`
    create index inventory_items_user_listing_idx
    on inventory_items (user_id, expiry_date asc nulls last, added_at, id)`.execute(db);
}
