import { sql } from 'kysely';
import type { AnyDb } from '../database.ts';

/**
 * Responses kept for `Idempotency-Key` retries (platform/idempotency): one row per user, key,
 * method and route pattern. `status_code` is null while the first request is still running.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`
    create table idempotency_keys (
      user_id uuid not null,
      key text not null,
      method text not null,
      route text not null,
      fingerprint text not null,
      status_code integer,
      response jsonb,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      primary key (user_id, key, method, route)
    )`.execute(db);
  await sql`create index idempotency_keys_expiry_idx on idempotency_keys (expires_at)`.execute(db);
}
