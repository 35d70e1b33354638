import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

export async function up(db: AnyDb): Promise<void> {
  await sql`
    create table subscriptions (
      user_id uuid primary key references users(id) on delete cascade,
      stripe_customer_id text unique,
      stripe_subscription_id text,
      tier text not null default 'free' check (tier in ('free', 'pro', 'family')),
      status text not null default 'active'
        check (status in ('active', 'cancelled', 'past_due', 'trialing')),
      valid_until timestamptz,
      cancel_at_period_end boolean not null default false,
      last_event_created bigint,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index subscriptions_subscription_idx on subscriptions (stripe_subscription_id)`.execute(
    db,
  );
  await sql`
    create table processed_events (
      event_id text primary key,
      type text not null,
      processed_at timestamptz not null default now()
    )`.execute(db);
}
