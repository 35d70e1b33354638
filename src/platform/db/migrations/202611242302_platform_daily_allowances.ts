import { sql } from 'kysely';
import type { AnyDb } from '../database.ts';

/** Per user, UTC day and kind of costly work (model calls, image jobs): how much was used. */
export async function up(db: AnyDb): Promise<void> {
  await sql`
    create table daily_allowances (
      user_id uuid not null,
      day date not null,
      kind text not null,
      used integer not null,
      primary key (user_id, day, kind)
    )`.execute(db);
}
