import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  await sql`
    create table shopping_list_items (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      ingredient_id integer not null references ingredients(id),
      quantity double precision not null check (quantity > 0),
      unit text not null,
      is_checked boolean not null default false,
      added_at timestamptz not null default now(),
      -- the meal plan that created the row, if one did (its FK is added with the meal_plans table)
      source_meal_plan_id uuid
    )`.execute(db);
  await sql`create index shopping_list_items_user_idx on shopping_list_items (user_id, ingredient_id)`.execute(
    db,
  );
  // How much of a row each meal plan put there (in the row's unit): regenerating a plan's list
  // takes its previous share back out first, so generating twice never doubles the list.
  await sql`
    create table shopping_list_plan_shares (
      item_id uuid not null references shopping_list_items(id) on delete cascade,
      meal_plan_id uuid not null,
      quantity double precision not null check (quantity > 0),
      primary key (item_id, meal_plan_id)
    )`.execute(db);
  await sql`create index shopping_list_plan_shares_plan_idx on shopping_list_plan_shares (meal_plan_id)`.execute(
    db,
  );
}
