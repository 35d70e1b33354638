import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

/**
 * A push token is unique per user, not globally: registering a token that another account holds
 * must not take it from that account (anyone who learns a device token could otherwise silence its
 * owner's notifications and redirect them to their own account).
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`alter table push_tokens drop constraint push_tokens_token_key`.execute(db);
  await sql`create unique index push_tokens_user_token_idx on push_tokens (user_id, token)`.execute(db);
}
