import type { Kysely } from 'kysely';
import { notFound } from '../../platform/errors.ts';
import { isUuid } from '../../platform/http/ids.ts';
import type { DevicesTables, PushTokensTable } from './tables.ts';

export interface PushToken {
  id: string;
  token: string;
  platform: PushTokensTable['platform'];
  createdAt: Date;
}

/** Push-token registry. The SQL is small enough to live here; the repository split buys nothing. */
export class DevicesService {
  readonly #db: Kysely<DevicesTables>;
  constructor(db: Kysely<DevicesTables>) {
    this.#db = db;
  }

  async list(userId: string): Promise<PushToken[]> {
    const rows = await this.#db
      .selectFrom('push_tokens')
      .select(['id', 'token', 'platform', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((r) => ({ id: r.id, token: r.token, platform: r.platform, createdAt: r.created_at }));
  }

  /**
   * Registering a token again refreshes the caller's own registration. A token another account
   * holds stays theirs: the caller gets a registration of their own, the other account keeps its.
   */
  async register(userId: string, token: string, platform: PushToken['platform']): Promise<PushToken> {
    const row = await this.#db
      .insertInto('push_tokens')
      .values({ user_id: userId, token, platform })
      .onConflict((oc) => oc.columns(['user_id', 'token']).doUpdateSet({ platform, created_at: new Date() }))
      .returning(['id', 'token', 'platform', 'created_at'])
      .executeTakeFirstOrThrow();
    return { id: row.id, token: row.token, platform: row.platform, createdAt: row.created_at };
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!isUuid(id)) throw notFound('Push token');
    const result = await this.#db
      .deleteFrom('push_tokens')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound('Push token');
  }
}
