import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  await sql`
    create table inventory_items (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      ingredient_id integer not null references ingredients(id),
      quantity double precision not null check (quantity > 0),
      unit text not null,
      location text not null check (location in ('fridge', 'freezer', 'pantry', 'other')),
      expiry_date date,
      added_at timestamptz not null default now()
    )`.execute(db);
  // Deduction reads one user's stock of a few ingredients, soonest expiry first.
  await sql`create index inventory_items_user_ingredient_idx on inventory_items (user_id, ingredient_id)`.execute(
    db,
  );
}
