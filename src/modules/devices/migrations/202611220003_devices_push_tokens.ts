import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  await sql`
    create table push_tokens (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      token text not null unique,
      platform text not null check (platform in ('ios', 'android', 'web')),
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index push_tokens_user_idx on push_tokens (user_id, created_at)`.execute(db);
}
