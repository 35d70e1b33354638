import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  await sql`
    create table preference_weights (
      user_id uuid not null references users(id) on delete cascade,
      kind text not null check (kind in ('cuisine', 'difficulty', 'ingredient')),
      key text not null,
      weight double precision not null check (weight >= 0 and weight <= 1),
      updated_at timestamptz not null default now(),
      primary key (user_id, kind, key)
    )`.execute(db);
}
