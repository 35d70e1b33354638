import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  // Seed ids (< 100000) are hand-assigned and public; imported foods draw from this sequence.
  await sql`create sequence ingredients_imported_id_seq start with 100000`.execute(db);
  await sql`
    create table ingredients (
      id integer primary key default nextval('ingredients_imported_id_seq'),
      name text not null unique,
      aliases text[] not null default '{}',
      category text not null,
      default_unit text not null check (default_unit in ('g', 'ml', 'piece')),
      kcal double precision not null,
      protein double precision not null,
      carbs double precision not null,
      fat double precision not null,
      fiber double precision not null,
      allergens text[] not null default '{}',
      diet text[] not null default '{}',
      density double precision check (density > 0),
      piece_g double precision check (piece_g > 0),
      measures jsonb not null default '{}',
      usda_ndb text,
      source text not null default 'seed' check (source in ('seed', 'usda')),
      -- name and aliases in one lower-case string, written with the row: what search matches.
      search_text text not null,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`alter sequence ingredients_imported_id_seq owned by ingredients.id`.execute(db);
  await sql`create index ingredients_aliases_idx on ingredients using gin (aliases)`.execute(db);
  await sql`create index ingredients_search_trgm_idx on ingredients using gin (search_text gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index ingredients_usda_ndb_idx on ingredients (usda_ndb) where usda_ndb is not null`.execute(
    db,
  );
}
