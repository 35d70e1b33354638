import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  // Each matched ingredient carries its offers (its promotion_matches rows) as one prebuilt JSON
  // array, rebuilt whenever its matches change (StoresRepository.refreshOffers): a price request
  // reads one row per item instead of ranking and aggregating thousands of matches each time.
  await sql`alter table promotion_match_terms add column offers json not null default '[]'`.execute(db);
  await sql`
    update promotion_match_terms k set offers = coalesce((
      select json_agg(json_build_array(m.store_id, m.original_price, m.discounted_price, m.unit,
                                       m.valid_until, m.score)
                      order by m.score desc, m.discounted_price, m.promotion_id)
      from promotion_matches m
      where m.ingredient_id = k.ingredient_id), '[]'::json)`.execute(db);
}
