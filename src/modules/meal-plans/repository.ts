import { sql, type Kysely, type Transaction } from 'kysely';
import type { FlexType, MealPlanRow, MealPlanTables, SlotRow } from './tables.ts';
import type { MealType } from '../recipes/contract.ts';

export interface NewSlot {
  day: number;
  mealType: MealType;
  recipeId: string | null;
  recipeTitle: string | null;
  servings: number;
  isFlex: boolean;
  flexType: FlexType | null;
}

export interface SlotChanges {
  recipe_id?: string | null | undefined;
  recipe_title?: string | null | undefined;
  servings?: number | undefined;
  is_flex?: boolean | undefined;
  flex_type?: FlexType | null | undefined;
  is_completed?: boolean | undefined;
  cooked_at?: Date | null | undefined;
}

export interface PlanSummaryRow extends MealPlanRow {
  slot_count: number;
}

export class MealPlansRepository {
  readonly #db: Kysely<MealPlanTables>;
  constructor(db: Kysely<MealPlanTables>) {
    this.#db = db;
  }

  /** Newest week first. */
  listPlans(userId: string, limit: number, offset: number): Promise<PlanSummaryRow[]> {
    return this.#db
      .selectFrom('meal_plans as p')
      .selectAll('p')
      .select((eb) =>
        eb
          .selectFrom('meal_plan_slots as s')
          .whereRef('s.plan_id', '=', 'p.id')
          .select(sql<number>`count(*)::int`.as('n'))
          .as('slot_count'),
      )
      .where('p.user_id', '=', userId)
      .orderBy('p.week_start', 'desc')
      .limit(limit)
      .offset(offset)
      .execute() as Promise<PlanSummaryRow[]>;
  }

  findPlan(
    userId: string,
    planId: string,
    options: { lock?: boolean } = {},
  ): Promise<MealPlanRow | undefined> {
    let query = this.#db
      .selectFrom('meal_plans')
      .selectAll()
      .where('id', '=', planId)
      .where('user_id', '=', userId);
    if (options.lock) query = query.forUpdate();
    return query.executeTakeFirst();
  }

  findPlanForWeek(
    userId: string,
    weekStart: string,
    options: { lock?: boolean } = {},
  ): Promise<MealPlanRow | undefined> {
    let query = this.#db
      .selectFrom('meal_plans')
      .selectAll()
      .where('user_id', '=', userId)
      .where('week_start', '=', weekStart);
    if (options.lock) query = query.forUpdate();
    return query.executeTakeFirst();
  }

  /** Inserts the plan, or answers undefined when that week already has one (race-safe). */
  insertPlan(userId: string, weekStart: string): Promise<MealPlanRow | undefined> {
    return this.#db
      .insertInto('meal_plans')
      .values({ user_id: userId, week_start: weekStart })
      .onConflict((oc) => oc.columns(['user_id', 'week_start']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  async deletePlan(userId: string, planId: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('meal_plans')
      .where('id', '=', planId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  slots(planId: string): Promise<SlotRow[]> {
    return this.#db.selectFrom('meal_plan_slots').selectAll().where('plan_id', '=', planId).execute();
  }

  findSlot(planId: string, slotId: string): Promise<SlotRow | undefined> {
    return this.#db
      .selectFrom('meal_plan_slots')
      .selectAll()
      .where('plan_id', '=', planId)
      .where('id', '=', slotId)
      .executeTakeFirst();
  }

  async insertSlots(planId: string, slots: readonly NewSlot[]): Promise<SlotRow[]> {
    if (slots.length === 0) return [];
    return this.#db
      .insertInto('meal_plan_slots')
      .values(
        slots.map((s) => ({
          plan_id: planId,
          day: s.day,
          meal_type: s.mealType,
          recipe_id: s.recipeId,
          recipe_title: s.recipeTitle,
          servings: s.servings,
          is_flex: s.isFlex,
          flex_type: s.flexType,
        })),
      )
      .returningAll()
      .execute();
  }

  updateSlot(planId: string, slotId: string, changes: SlotChanges): Promise<SlotRow | undefined> {
    const values = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    if (Object.keys(values).length === 0) return this.findSlot(planId, slotId);
    return this.#db
      .updateTable('meal_plan_slots')
      .set(values)
      .where('plan_id', '=', planId)
      .where('id', '=', slotId)
      .returningAll()
      .executeTakeFirst();
  }

  async deleteSlot(planId: string, slotId: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('meal_plan_slots')
      .where('plan_id', '=', planId)
      .where('id', '=', slotId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Deletes the plan's slots (of one day and meal when given); answers how many. */
  async deleteSlots(planId: string, at?: { day: number; mealType: MealType }): Promise<number> {
    let query = this.#db.deleteFrom('meal_plan_slots').where('plan_id', '=', planId);
    if (at) query = query.where('day', '=', at.day).where('meal_type', '=', at.mealType);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The slots of one day and meal, in the order they were added. */
  slotsAt(planId: string, day: number, mealType: MealType): Promise<SlotRow[]> {
    return this.#db
      .selectFrom('meal_plan_slots')
      .selectAll()
      .where('plan_id', '=', planId)
      .where('day', '=', day)
      .where('meal_type', '=', mealType)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  transaction<T>(work: (repo: MealPlansRepository) => Promise<T>): Promise<T> {
    return this.#db
      .transaction()
      .execute((trx: Transaction<MealPlanTables>) => work(new MealPlansRepository(trx)));
  }
}
