import { sql } from 'kysely';
import type { AnyDb } from '../db/database.ts';
import { AppError } from '../errors.ts';

/** Kinds of costly work each user may do a bounded number of times per UTC day. */
export type AllowanceKind = 'model_call' | 'image_job';

const WHAT: Record<AllowanceKind, string> = {
  model_call: 'AI requests',
  image_job: 'image generations',
};

/** 429 with the moment the allowance renews (next UTC midnight). */
export function dailyAllowanceSpent(kind: AllowanceKind, limit: number, now: Date): AppError {
  const resetAt = nextUtcMidnight(now);
  const seconds = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
  return new AppError(
    429,
    'rate_limited',
    'Too many requests',
    `Your daily allowance of ${limit} ${WHAT[kind]} is used up; it renews at ${resetAt.toISOString()}.`,
    { headers: { 'retry-after': String(seconds) }, extra: { reset_at: resetAt.toISOString(), limit } },
  );
}

function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/**
 * Daily allowances kept in the database, so every instance counts the same. Reserving is one
 * conditional upsert: two requests racing for the last unit cannot both get it.
 */
export class DailyAllowances {
  readonly #db: AnyDb;
  constructor(db: AnyDb) {
    this.#db = db;
  }

  /** Takes one unit, or throws 429 when `limit` units were already taken today. null: unlimited. */
  async take(userId: string, kind: AllowanceKind, limit: number | null, now: Date): Promise<void> {
    if (limit === null) return;
    const result = await sql<{ used: number }>`
      insert into daily_allowances as a (user_id, day, kind, used)
      values (${userId}, ${dayOf(now)}, ${kind}, 1)
      on conflict (user_id, day, kind) do update set used = a.used + 1
      where a.used < ${limit}::integer
      returning used`.execute(this.#db);
    if (result.rows.length === 0) throw dailyAllowanceSpent(kind, limit, now);
  }

  /** Gives a unit back: the work never reached the upstream, so it cost nothing. */
  async giveBack(userId: string, kind: AllowanceKind, now: Date): Promise<void> {
    await sql`
      update daily_allowances set used = greatest(used - 1, 0)
      where user_id = ${userId} and day = ${dayOf(now)} and kind = ${kind}`.execute(this.#db);
  }

  async used(userId: string, kind: AllowanceKind, now: Date): Promise<number> {
    const result = await sql<{ used: number }>`
      select used from daily_allowances
      where user_id = ${userId} and day = ${dayOf(now)} and kind = ${kind}`.execute(this.#db);
    return result.rows[0]?.used ?? 0;
  }
}

/**
 * Whether failed work still cost its upstream something. A timeout may have run to the end (a long
 * answer nobody waited for) and an unexpected failure after the call may have come after the work:
 * both count. An upstream that refused, failed fast or was not configured did no work.
 */
export function spentAnyway(error: unknown): boolean {
  if (!(error instanceof AppError)) return true;
  return error.code === 'upstream_timeout';
}
