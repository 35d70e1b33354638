import { sql } from 'kysely';
import type { AnyDb } from '../db/database.ts';

export interface IdempotencyScope {
  userId: string;
  key: string;
  method: string;
  route: string;
}

export interface StoredAttempt {
  fingerprint: string;
  /** Null while the first request is still running. */
  statusCode: number | null;
  response: unknown;
}

/** The SQL of the idempotency_keys table (platform migration 202611242300). */
export class IdempotencyStore {
  readonly #db: AnyDb;
  constructor(db: AnyDb) {
    this.#db = db;
  }

  /**
   * Takes the key for this request; false when a live row holds it. Expired rows go first. On
   * PostgreSQL an insert racing an uncommitted one for the same key waits for it.
   */
  async claim(scope: IdempotencyScope, fingerprint: string, expiresAt: Date): Promise<boolean> {
    // This key when it has expired, and a bounded batch of everyone's expired rows.
    await sql`
      delete from idempotency_keys
      where user_id = ${scope.userId} and key = ${scope.key} and method = ${scope.method}
        and route = ${scope.route} and expires_at <= now()`.execute(this.#db);
    await sql`
      delete from idempotency_keys where (user_id, key, method, route) in (
        select user_id, key, method, route from idempotency_keys where expires_at <= now() limit 100 for update skip locked)`.execute(
      this.#db,
    );
    const inserted = await sql`
      insert into idempotency_keys (user_id, key, method, route, fingerprint, expires_at)
      values (${scope.userId}, ${scope.key}, ${scope.method}, ${scope.route}, ${fingerprint}, ${expiresAt})
      on conflict do nothing`.execute(this.#db);
    return Number(inserted.numAffectedRows ?? 0) === 1;
  }

  async find(scope: IdempotencyScope): Promise<StoredAttempt | undefined> {
    const { rows } = await sql<{ fingerprint: string; status_code: number | null; response: unknown }>`
      select fingerprint, status_code, response from idempotency_keys
      where user_id = ${scope.userId} and key = ${scope.key} and method = ${scope.method}
        and route = ${scope.route}`.execute(this.#db);
    const row = rows[0];
    return row && { fingerprint: row.fingerprint, statusCode: row.status_code, response: row.response };
  }

  async complete(
    scope: IdempotencyScope,
    statusCode: number,
    response: unknown,
    expiresAt: Date,
  ): Promise<void> {
    await sql`
      update idempotency_keys
      set status_code = ${statusCode}, response = ${JSON.stringify(response ?? null)}::jsonb,
          expires_at = ${expiresAt}
      where user_id = ${scope.userId} and key = ${scope.key} and method = ${scope.method}
        and route = ${scope.route}`.execute(this.#db);
  }

  async release(scope: IdempotencyScope): Promise<void> {
    await sql`
      delete from idempotency_keys
      where user_id = ${scope.userId} and key = ${scope.key} and method = ${scope.method}
        and route = ${scope.route} and status_code is null`.execute(this.#db);
  }
}
