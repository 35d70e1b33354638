import { sql, type Kysely } from 'kysely';
import type { PreferenceKind, PreferencesTables } from './tables.ts';

export class PreferencesRepository {
  readonly #db: Kysely<PreferencesTables>;
  constructor(db: Kysely<PreferencesTables>) {
    this.#db = db;
  }

  list(userId: string): Promise<{ kind: PreferenceKind; key: string; weight: number }[]> {
    return this.#db
      .selectFrom('preference_weights')
      .select(['kind', 'key', 'weight'])
      .where('user_id', '=', userId)
      .orderBy('kind')
      .orderBy('key')
      .execute();
  }

  async reset(userId: string): Promise<void> {
    await this.#db.deleteFrom('preference_weights').where('user_id', '=', userId).execute();
  }

  /**
   * Moves each weight the fraction `rate` of the way toward `target`, in SQL so that concurrent
   * updates compose instead of overwriting each other. A missing weight starts from neutral 0.5.
   */
  async nudge(
    userId: string,
    entries: { kind: PreferenceKind; key: string }[],
    target: number,
    rate: number,
  ) {
    if (entries.length === 0) return;
    const start = 0.5 + rate * (target - 0.5);
    await this.#db
      .insertInto('preference_weights')
      .values(
        entries.map((e) => ({
          user_id: userId,
          kind: e.kind,
          key: e.key,
          weight: start,
          updated_at: new Date(),
        })),
      )
      .onConflict((oc) =>
        oc.columns(['user_id', 'kind', 'key']).doUpdateSet({
          weight: sql<number>`preference_weights.weight + ${rate}::float8 * (${target}::float8 - preference_weights.weight)`,
          updated_at: new Date(),
        }),
      )
      .execute();
  }
}
