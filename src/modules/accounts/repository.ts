import { sql, type Kysely, type Transaction } from 'kysely';
import type { AccountsTables, UserRow } from './tables.ts';
import type { Tier } from '../../platform/security/tokens.ts';

export interface NewUser {
  email: string;
  passwordHash: string;
  name: string;
}

export interface ProfileChanges {
  name?: string | undefined;
  household_size?: number | undefined;
  dietary_restrictions?: string[] | undefined;
  allergies?: string[] | undefined;
  health_goals?: string[] | undefined;
  cooking_skill?: string | undefined;
  onboarded_at?: Date | undefined;
}

export interface StoredRefreshToken {
  id: string;
  userId: string;
  familyId: string;
  tokenHash: string;
  expiresAt: Date;
}

export type RefreshTokenState = 'active' | 'used' | 'revoked' | 'expired';

export class AccountsRepository {
  readonly #db: Kysely<AccountsTables>;
  constructor(db: Kysely<AccountsTables>) {
    this.#db = db;
  }

  findById(id: string): Promise<UserRow | undefined> {
    return this.#db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByIds(ids: readonly string[]): Promise<UserRow[]> {
    return this.#db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', sql<string>`any(${[...ids]}::uuid[])`)
      .execute();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.#db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /** Inserts the user, or answers undefined when the email is already taken (race-safe). */
  async insert(user: NewUser): Promise<UserRow | undefined> {
    return this.#db
      .insertInto('users')
      .values({ email: user.email, password_hash: user.passwordHash, name: user.name })
      .onConflict((oc) => oc.column('email').doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  /** Creates an account that is an admin from the start, or answers undefined when the email exists. */
  async insertAdmin(user: NewUser): Promise<UserRow | undefined> {
    return this.#db
      .insertInto('users')
      .values({ email: user.email, password_hash: user.passwordHash, name: user.name, is_admin: true })
      .onConflict((oc) => oc.column('email').doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  async setAdmin(email: string, isAdmin: boolean): Promise<UserRow | undefined> {
    return this.#db
      .updateTable('users')
      .set({ is_admin: isAdmin, updated_at: new Date() })
      .where('email', '=', email)
      .returningAll()
      .executeTakeFirst();
  }

  listAdmins(): Promise<UserRow[]> {
    return this.#db.selectFrom('users').selectAll().where('is_admin', '=', true).orderBy('email').execute();
  }

  async updateProfile(id: string, changes: ProfileChanges): Promise<UserRow | undefined> {
    const values = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    return this.#db
      .updateTable('users')
      .set({ ...values, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async setTier(id: string, tier: Tier): Promise<void> {
    await this.#db.updateTable('users').set({ tier, updated_at: new Date() }).where('id', '=', id).execute();
  }

  async insertRefreshToken(token: StoredRefreshToken): Promise<void> {
    await this.#db
      .insertInto('refresh_tokens')
      .values({
        id: token.id,
        user_id: token.userId,
        family_id: token.familyId,
        token_hash: token.tokenHash,
        expires_at: token.expiresAt,
      })
      .execute();
  }

  /**
   * Marks an active token used and answers its row; a token that is unknown, used, revoked or
   * expired is answered with its state instead. The conditional UPDATE makes two concurrent
   * refreshes with one token impossible: only one of them finds `used_at` still null.
   */
  async consumeRefreshToken(
    tokenHash: string,
    now: Date,
  ): Promise<
    | { state: 'active'; row: StoredRefreshToken }
    | {
        state: Exclude<RefreshTokenState, 'active'> | 'unknown';
        familyId?: string;
        userId?: string;
        usedAt?: Date | null;
      }
  > {
    const consumed = await this.#db
      .updateTable('refresh_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['id', 'user_id', 'family_id', 'token_hash', 'expires_at'])
      .executeTakeFirst();
    if (consumed) {
      return {
        state: 'active',
        row: {
          id: consumed.id,
          userId: consumed.user_id,
          familyId: consumed.family_id,
          tokenHash: consumed.token_hash,
          expiresAt: consumed.expires_at,
        },
      };
    }
    const existing = await this.#db
      .selectFrom('refresh_tokens')
      .select(['family_id', 'user_id', 'used_at', 'revoked_at', 'expires_at'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!existing) return { state: 'unknown' };
    const state = existing.revoked_at ? 'revoked' : existing.used_at ? 'used' : 'expired';
    return { state, familyId: existing.family_id, userId: existing.user_id, usedAt: existing.used_at };
  }

  async revokeFamily(familyId: string, now: Date): Promise<void> {
    await this.#db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async findRefreshTokenByHash(tokenHash: string): Promise<{ userId: string; familyId: string } | undefined> {
    const row = await this.#db
      .selectFrom('refresh_tokens')
      .select(['user_id', 'family_id'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row ? { userId: row.user_id, familyId: row.family_id } : undefined;
  }

  /** Rotation inside one transaction: consume the old token and store its successor together. */
  transaction<T>(work: (repo: AccountsRepository) => Promise<T>): Promise<T> {
    return this.#db
      .transaction()
      .execute((trx: Transaction<AccountsTables>) => work(new AccountsRepository(trx)));
  }
}
