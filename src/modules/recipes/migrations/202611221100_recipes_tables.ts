import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  // owner_id null = the seeded catalog (keyed by slug); nutrition is cached per serving and
  // recomputed by the service on every write, as are allergens, fits and ingredient_names.
  await sql`
    create table recipes (
      id uuid primary key default gen_random_uuid(),
      slug text unique,
      seed_hash text,
      owner_id uuid references users(id) on delete cascade,
      title text not null,
      description text not null default '',
      cuisine text not null,
      difficulty text not null check (difficulty in ('easy', 'medium', 'hard')),
      prep_time integer not null check (prep_time >= 0),
      cook_time integer not null check (cook_time >= 0),
      total_time integer generated always as (prep_time + cook_time) stored,
      servings integer not null check (servings > 0),
      meal_types text[] not null default '{}',
      is_public boolean not null default false,
      steps text[] not null default '{}',
      images text[] not null default '{}',
      calories double precision not null default 0,
      protein double precision not null default 0,
      carbs double precision not null default 0,
      fat double precision not null default 0,
      fiber double precision not null default 0,
      allergens text[] not null default '{}',
      fits text[] not null default '{}',
      ingredient_names text not null default '',
      rating_count integer not null default 0,
      rating_sum integer not null default 0,
      search tsvector generated always as (
        setweight(to_tsvector('english', title), 'A') ||
        setweight(to_tsvector('english', description), 'B') ||
        setweight(to_tsvector('english', ingredient_names), 'C')
      ) stored,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (owner_id is not null or slug is not null)
    )`.execute(db);
  await sql`create index recipes_search_idx on recipes using gin (search)`.execute(db);
  await sql`create index recipes_cuisine_idx on recipes (cuisine)`.execute(db);
  await sql`create index recipes_difficulty_idx on recipes (difficulty)`.execute(db);
  await sql`create index recipes_total_time_idx on recipes (total_time)`.execute(db);
  await sql`create index recipes_fits_idx on recipes using gin (fits)`.execute(db);
  await sql`create index recipes_meal_types_idx on recipes using gin (meal_types)`.execute(db);
  await sql`create index recipes_owner_idx on recipes (owner_id, created_at desc)`.execute(db);
  await sql`create index recipes_title_idx on recipes (title, id)`.execute(db);

  await sql`
    create table recipe_ingredients (
      recipe_id uuid not null references recipes(id) on delete cascade,
      position integer not null,
      ingredient_id integer not null references ingredients(id),
      quantity double precision not null check (quantity > 0),
      unit text not null,
      primary key (recipe_id, position)
    )`.execute(db);
  await sql`create index recipe_ingredients_ingredient_idx on recipe_ingredients (ingredient_id)`.execute(db);

  await sql`
    create table recipe_ratings (
      user_id uuid not null references users(id) on delete cascade,
      recipe_id uuid not null references recipes(id) on delete cascade,
      rating smallint not null check (rating between 1 and 5),
      notes text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (user_id, recipe_id)
    )`.execute(db);
  await sql`create index recipe_ratings_recipe_idx on recipe_ratings (recipe_id)`.execute(db);

  await sql`
    create table recipe_favourites (
      user_id uuid not null references users(id) on delete cascade,
      recipe_id uuid not null references recipes(id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (user_id, recipe_id)
    )`.execute(db);
  await sql`create index recipe_favourites_user_idx on recipe_favourites (user_id, created_at desc)`.execute(
    db,
  );
  await sql`create index recipe_favourites_recipe_idx on recipe_favourites (recipe_id)`.execute(db);

  // History outlives the recipe: the title is kept, recipe_id becomes null.
  await sql`
    create table cooking_history (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      recipe_id uuid references recipes(id) on delete set null,
      title text not null,
      servings integer not null check (servings > 0),
      cooked_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index cooking_history_user_idx on cooking_history (user_id, cooked_at desc, id)`.execute(
    db,
  );
  await sql`create index cooking_history_recipe_idx on cooking_history (recipe_id)`.execute(db);

  // Catalog recipes an admin deleted: start-up seeding must not bring them back.
  await sql`
    create table retired_catalog_slugs (
      slug text primary key,
      retired_at timestamptz not null default now()
    )`.execute(db);
}
