import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  await sql`
    create table users (
      id uuid primary key default gen_random_uuid(),
      email text not null unique,
      password_hash text not null,
      name text not null,
      household_size integer not null default 1,
      dietary_restrictions text[] not null default '{}',
      allergies text[] not null default '{}',
      health_goals text[] not null default '{}',
      cooking_skill text not null default 'beginner',
      tier text not null default 'free' check (tier in ('free', 'pro', 'family')),
      onboarded_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table refresh_tokens (
      id uuid primary key,
      user_id uuid not null references users(id) on delete cascade,
      family_id uuid not null,
      token_hash text not null unique,
      expires_at timestamptz not null,
      used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index refresh_tokens_family_idx on refresh_tokens (family_id)`.execute(db);
  await sql`create index refresh_tokens_user_idx on refresh_tokens (user_id)`.execute(db);
}
