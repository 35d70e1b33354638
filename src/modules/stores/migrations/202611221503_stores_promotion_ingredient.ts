import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  // Which ingredients each live promotion matches (pricing.ts has the rule), resolved when it goes
  // live rather than by fuzzy matching on every price request. The offer's store, prices, unit and
  // date are copied in (refreshed whenever the promotion is matched again), so that a price request
  // reads this table alone, in the order of its index.
  await sql`
    create table promotion_matches (
      promotion_id uuid not null references promotions(id) on delete cascade,
      ingredient_id integer not null,
      score real not null,
      store_id uuid not null,
      original_price numeric(10, 2) not null,
      discounted_price numeric(10, 2) not null,
      unit text not null,
      valid_until date not null,
      primary key (promotion_id, ingredient_id)
    )`.execute(db);
  await sql`create index promotion_matches_ingredient_idx on promotion_matches (ingredient_id, store_id, score desc)`.execute(
    db,
  );
  // The names and aliases each ingredient was matched with: an ingredient missing here, or whose
  // catalog terms have changed since, is matched against all live promotions when next priced.
  await sql`
    create table promotion_match_terms (
      ingredient_id integer primary key,
      terms text[] not null
    )`.execute(db);
}
