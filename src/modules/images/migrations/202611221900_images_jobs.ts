import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  await sql`
    create table image_jobs (
      job_id text primary key,
      user_id uuid not null references users(id) on delete cascade,
      recipe_id uuid not null references recipes(id) on delete cascade,
      kind text not null check (kind in ('hero', 'step')),
      status text not null check (status in ('pending', 'running', 'done', 'failed')),
      result_url text,
      result_urls text[] not null default '{}',
      error text,
      attached_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index image_jobs_user_idx on image_jobs (user_id, created_at)`.execute(db);
}
