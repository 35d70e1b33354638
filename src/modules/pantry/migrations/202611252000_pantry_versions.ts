import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

/**
 * A number per user that every change to their pantry raises, from triggers, so that no write path
 * (the routes, cooking deductions, a later module, a manual fix) can forget it: a listing computed
 * for one number is still right while the number is unchanged (PantryService's listing cache).
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`
    create table pantry_versions (
      user_id uuid primary key references users(id) on delete cascade,
      version bigint not null
    )`.execute(db);
  await sql`
    create function pantry_rows_changed() returns trigger language plpgsql as $$
    begin
      insert into pantry_versions as v (user_id, version)
      select distinct user_id, 1 from changed_rows order by user_id
      on conflict (user_id) do update set version = v.version + 1;
      return null;
    end $$`.execute(db);
  for (const [event, rows] of [
    ['insert', 'new'],
    ['update', 'new'],
    ['delete', 'old'],
  ] as const) {
    await sql`
      create trigger ${sql.raw(`pantry_version_${event}`)} after ${sql.raw(event)} on inventory_items
        referencing ${sql.raw(rows)} table as changed_rows
        for each statement execute function pantry_rows_changed()`.execute(db);
  }
}
