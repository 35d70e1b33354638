import { sql, type Kysely, type Transaction } from 'kysely';
import type { NewRow, OpenRow } from './generation.ts';
import type { ShoppingRow, ShoppingTables } from './tables.ts';

export interface NewShoppingRow {
  userId: string;
  ingredientId: number;
  quantity: number;
  unit: string;
  sourceMealPlanId: string | null;
}

export interface ShoppingRowChanges {
  quantity?: number | undefined;
  unit?: string | undefined;
  is_checked?: boolean | undefined;
}

/** Namespace of this module's advisory locks (the second key is the user). */
const LIST_LOCK_NAMESPACE = 1300;

export class ShoppingRepository {
  readonly #db: Kysely<ShoppingTables>;
  constructor(db: Kysely<ShoppingTables>) {
    this.#db = db;
  }

  /** Unchecked first, then by aisle (category is applied by the service), then oldest first. */
  list(userId: string, options: { uncheckedOnly?: boolean } = {}): Promise<ShoppingRow[]> {
    let query = this.#db.selectFrom('shopping_list_items').selectAll().where('user_id', '=', userId);
    if (options.uncheckedOnly) query = query.where('is_checked', '=', false);
    return query.orderBy('is_checked').orderBy('added_at').orderBy('id').execute();
  }

  find(userId: string, id: string): Promise<ShoppingRow | undefined> {
    return this.#db
      .selectFrom('shopping_list_items')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  findMany(ids: readonly string[]): Promise<ShoppingRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.#db
      .selectFrom('shopping_list_items')
      .selectAll()
      .where('id', 'in', [...ids])
      .execute();
  }

  /**
   * Serialises changes to one user's list (merging must see rows a concurrent request is about to
   * insert, which row locks cannot give). Held until the transaction ends.
   */
  async lockList(userId: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(${LIST_LOCK_NAMESPACE}, hashtext(${userId}))`.execute(this.#db);
  }

  insert(row: NewShoppingRow): Promise<ShoppingRow> {
    return this.#db
      .insertInto('shopping_list_items')
      .values({
        user_id: row.userId,
        ingredient_id: row.ingredientId,
        quantity: row.quantity,
        unit: row.unit,
        source_meal_plan_id: row.sourceMealPlanId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(userId: string, id: string, changes: ShoppingRowChanges): Promise<ShoppingRow | undefined> {
    const values = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    if (Object.keys(values).length === 0) return this.find(userId, id);
    return this.#db
      .updateTable('shopping_list_items')
      .set(values)
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('shopping_list_items')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async deleteMany(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#db
      .deleteFrom('shopping_list_items')
      .where('id', 'in', [...ids])
      .execute();
  }

  /** The unchecked rows in list order, each with its share from one meal plan (one query). */
  async listOpenWithShare(userId: string, planId: string): Promise<OpenRow[]> {
    const rows = await this.#db
      .selectFrom('shopping_list_items as i')
      .leftJoin('shopping_list_plan_shares as s', (join) =>
        join.onRef('s.item_id', '=', 'i.id').on('s.meal_plan_id', '=', planId),
      )
      .selectAll('i')
      .select('s.quantity as plan_share')
      .where('i.user_id', '=', userId)
      .where('i.is_checked', '=', false)
      .orderBy('i.added_at')
      .orderBy('i.id')
      .execute();
    return rows.map(({ plan_share, ...row }) => ({ row, share: plan_share ?? undefined }));
  }

  /** Removes a plan's shares of rows. */
  async dropShares(planId: string, itemIds: readonly string[]): Promise<void> {
    if (itemIds.length === 0) return;
    await this.#db
      .deleteFrom('shopping_list_plan_shares')
      .where('meal_plan_id', '=', planId)
      .where('item_id', '=', sql<string>`any(${[...itemIds]}::uuid[])`)
      .execute();
  }

  /** Sets the quantity of many of the user's rows in one statement. */
  async setQuantities(
    userId: string,
    changes: ReadonlyArray<{ id: string; quantity: number }>,
  ): Promise<void> {
    if (changes.length === 0) return;
    await sql`
      update shopping_list_items as i set quantity = v.quantity
      from unnest(${changes.map((c) => c.id)}::uuid[], ${changes.map((c) => c.quantity)}::float8[])
        as v(id, quantity)
      where i.id = v.id and i.user_id = ${userId}`.execute(this.#db);
  }

  /** Inserts rows whose ids the caller chose, in one statement. */
  insertMany(
    userId: string,
    rows: readonly NewRow[],
    sourceMealPlanId: string | null,
  ): Promise<ShoppingRow[]> {
    if (rows.length === 0) return Promise.resolve([]);
    return this.#db
      .insertInto('shopping_list_items')
      .values(
        rows.map((r) => ({
          id: r.id,
          user_id: userId,
          ingredient_id: r.ingredientId,
          quantity: r.quantity,
          unit: r.unit,
          source_meal_plan_id: sourceMealPlanId,
        })),
      )
      .returningAll()
      .execute();
  }

  /** Sets a plan's (positive) shares of many rows in one statement. */
  async upsertShares(
    planId: string,
    shares: ReadonlyArray<{ itemId: string; quantity: number }>,
  ): Promise<void> {
    if (shares.length === 0) return;
    await this.#db
      .insertInto('shopping_list_plan_shares')
      .values(shares.map((s) => ({ item_id: s.itemId, meal_plan_id: planId, quantity: s.quantity })))
      .onConflict((oc) =>
        oc
          .columns(['item_id', 'meal_plan_id'])
          .doUpdateSet((eb) => ({ quantity: eb.ref('excluded.quantity') })),
      )
      .execute();
  }

  async sharesOf(itemId: string): Promise<{ mealPlanId: string; quantity: number }[]> {
    const rows = await this.#db
      .selectFrom('shopping_list_plan_shares')
      .select(['meal_plan_id', 'quantity'])
      .where('item_id', '=', itemId)
      .execute();
    return rows.map((r) => ({ mealPlanId: r.meal_plan_id, quantity: r.quantity }));
  }

  /** Sets a row's share from a plan (removing it when the quantity is not positive). */
  async setShare(itemId: string, planId: string, quantity: number): Promise<void> {
    if (!(quantity > 0)) {
      await this.#db
        .deleteFrom('shopping_list_plan_shares')
        .where('item_id', '=', itemId)
        .where('meal_plan_id', '=', planId)
        .execute();
      return;
    }
    await this.#db
      .insertInto('shopping_list_plan_shares')
      .values({ item_id: itemId, meal_plan_id: planId, quantity })
      .onConflict((oc) => oc.columns(['item_id', 'meal_plan_id']).doUpdateSet({ quantity }))
      .execute();
  }

  transaction<T>(work: (repo: ShoppingRepository) => Promise<T>): Promise<T> {
    return this.#db
      .transaction()
      .execute((trx: Transaction<ShoppingTables>) => work(new ShoppingRepository(trx)));
  }
}
