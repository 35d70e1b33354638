import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  // The planner's pool (RecipesRepository.candidatePool) walks recipe ids from a random point and
  // stops after a few hundred matches. Every column its filters read rides along in the index, so
  // the walk is an index-only scan that skips non-matching recipes without a heap visit each.
  await sql`
    create index recipes_planner_pool_idx on recipes (id)
    include (meal_types, total_time, cuisine, fits, allergens, owner_id, is_public)`.execute(db);
}
