import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  await sql`
    create table meal_plans (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      week_start date not null check (extract(isodow from week_start) = 1),
      created_at timestamptz not null default now(),
      unique (user_id, week_start)
    )`.execute(db);
  // recipe_title is copied from the recipe so that a slot keeps its name when the recipe is deleted.
  await sql`
    create table meal_plan_slots (
      id uuid primary key default gen_random_uuid(),
      plan_id uuid not null references meal_plans(id) on delete cascade,
      day smallint not null check (day between 0 and 6),
      meal_type text not null check (meal_type in ('breakfast', 'lunch', 'dinner', 'snack')),
      recipe_id uuid references recipes(id) on delete set null,
      recipe_title text,
      servings integer not null check (servings between 1 and 100),
      is_flex boolean not null default false,
      flex_type text check (flex_type in ('effort', 'nutrition', 'mental', 'social')),
      is_completed boolean not null default false,
      created_at timestamptz not null default now(),
      check (flex_type is null or is_flex)
    )`.execute(db);
  await sql`create index meal_plan_slots_plan_idx on meal_plan_slots (plan_id, day)`.execute(db);
  await sql`create index meal_plan_slots_recipe_idx on meal_plan_slots (recipe_id)`.execute(db);

  // The shopping list (migrated before this table existed) records which plan put what on it.
  await sql`
    alter table shopping_list_items
      add constraint shopping_list_items_source_plan_fk
      foreign key (source_meal_plan_id) references meal_plans(id) on delete set null`.execute(db);
  await sql`
    alter table shopping_list_plan_shares
      add constraint shopping_list_plan_shares_plan_fk
      foreign key (meal_plan_id) references meal_plans(id) on delete cascade`.execute(db);
}
