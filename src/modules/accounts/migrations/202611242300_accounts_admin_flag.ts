import { sql } from 'kysely';
import type { AnyDb } from '../../../platform/db/database.ts';

/**
 * Admin rights are stored on the account. They are acquired only when the service creates a listed
 * ADMIN_EMAILS account itself, or by an explicit grant (CLI or an admin), never by registering.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`alter table users add column is_admin boolean not null default false`.execute(db);
}
