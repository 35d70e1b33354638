import { conflict, invalidField, notFound } from '../../platform/errors.ts';
import { isUuid } from '../../platform/http/ids.ts';
import { isRealDate } from '../pantry/dates.ts';
import type { DeductedAmount } from '../pantry/contract.ts';
import type { MealType, RecipeCatalog, RecipeForUse, Viewer } from '../recipes/contract.ts';
import { summarizeNutrition, type WeekNutrition } from './nutrition.ts';
import type { MealPlansRepository, NewSlot, SlotChanges } from './repository.ts';
import { MEAL_TYPES, type FlexType, type MealPlanRow, type SlotRow } from './tables.ts';
import { isMonday, weekStartOf } from './week.ts';

export interface Slot {
  id: string;
  day: number;
  mealType: MealType;
  recipeId: string | null;
  recipeTitle: string | null;
  servings: number;
  isFlex: boolean;
  flexType: FlexType | null;
  isCompleted: boolean;
}

/** What completing a slot did: its recipe cooked at the slot's servings. */
export interface SlotCooking {
  cookedAt: Date;
  deducted: DeductedAmount[];
  missing: DeductedAmount[];
}

export interface SlotWithCooking extends Slot {
  /** Set when this change cooked the slot's recipe; null when it did not (already cooked, no recipe). */
  cooking: SlotCooking | null;
}

/** Cooking a recipe as POST /api/recipes/:id/cook does (pantry, history, taste), in the caller's unit of work. */
export interface Kitchen {
  cook(recipeId: string, user: Viewer, servings: number): Promise<SlotCooking>;
}

export interface PlanDetail {
  id: string;
  weekStart: string;
  createdAt: Date;
  /** By day, then breakfast, lunch, dinner, snack, then the order they were added. */
  slots: Slot[];
}

export interface PlanSummary {
  id: string;
  weekStart: string;
  createdAt: Date;
  slotCount: number;
}

export interface SlotInput {
  day: number;
  mealType: MealType;
  recipeId: string | null;
  /** Default: the user's household size. */
  servings?: number | undefined;
  isFlex?: boolean | undefined;
  flexType?: FlexType | null | undefined;
}

export interface SlotUpdate {
  recipeId?: string | null | undefined;
  servings?: number | undefined;
  isFlex?: boolean | undefined;
  flexType?: FlexType | null | undefined;
  isCompleted?: boolean | undefined;
}

/** A user id (acting as a plain user) or a viewer (admins see every recipe). */
export type Actor = string | Viewer;

/** What meal plans need to know about a user. */
export interface HouseholdSource {
  getProfile(userId: string): Promise<{ householdSize: number }>;
}

export class MealPlansService {
  readonly #repo: MealPlansRepository;
  readonly #recipes: RecipeCatalog;
  readonly #accounts: HouseholdSource;
  readonly #now: () => Date;
  readonly #kitchen: Kitchen | undefined;

  constructor(
    repo: MealPlansRepository,
    recipes: RecipeCatalog,
    accounts: HouseholdSource,
    now: () => Date = () => new Date(),
    kitchen?: Kitchen,
  ) {
    this.#repo = repo;
    this.#recipes = recipes;
    this.#accounts = accounts;
    this.#now = now;
    this.#kitchen = kitchen;
  }

  /** The Monday (UTC, `YYYY-MM-DD`) of the week `now` falls in. */
  currentWeekStart(now: Date = this.#now()): string {
    return weekStartOf(now);
  }

  async list(userId: string, page: { limit: number; offset: number }): Promise<PlanSummary[]> {
    const rows = await this.#repo.listPlans(userId, page.limit, page.offset);
    return rows.map((r) => ({
      id: r.id,
      weekStart: r.week_start,
      createdAt: r.created_at,
      slotCount: Number(r.slot_count),
    }));
  }

  /** An empty plan for the week; 400 unless week_start is a Monday, 409 when the week has one. */
  async createPlan(userId: string, weekStart: string): Promise<PlanDetail> {
    checkWeekStart(weekStart);
    const row = await this.#repo.insertPlan(userId, weekStart);
    if (!row) throw conflict(`A meal plan for the week of ${weekStart} already exists.`);
    return toDetail(row, []);
  }

  async getPlanDetail(userId: string, planId: string): Promise<PlanDetail> {
    const plan = await this.#plan(userId, planId);
    return toDetail(plan, await this.#repo.slots(plan.id));
  }

  async getPlanForWeek(userId: string, weekStart: string): Promise<PlanDetail | undefined> {
    checkWeekStart(weekStart);
    const plan = await this.#repo.findPlanForWeek(userId, weekStart);
    return plan ? toDetail(plan, await this.#repo.slots(plan.id)) : undefined;
  }

  async getOrCreatePlan(userId: string, weekStart: string): Promise<PlanDetail> {
    checkWeekStart(weekStart);
    const created = await this.#repo.insertPlan(userId, weekStart);
    if (created) return toDetail(created, []);
    const existing = await this.getPlanForWeek(userId, weekStart);
    if (!existing) throw new Error(`meal plan for ${weekStart} vanished while being created`);
    return existing;
  }

  async deletePlan(userId: string, planId: string): Promise<void> {
    if (!isUuid(planId) || !(await this.#repo.deletePlan(userId, planId))) throw notFound('Meal plan');
  }

  /** Removes every slot of the plan; answers how many there were. */
  async clearPlan(userId: string, planId: string): Promise<number> {
    const plan = await this.#plan(userId, planId);
    return this.#repo.deleteSlots(plan.id);
  }

  /** POST /api/meal-plans/:id/slots: adds a slot (a day may hold several of one meal type). */
  async addSlot(actor: Actor, planId: string, input: SlotInput): Promise<Slot> {
    const viewer = viewerOf(actor);
    await this.#plan(viewer.id, planId);
    const slot = await this.#newSlot(viewer, input);
    const row = await this.#repo.transaction(async (repo) => {
      // Locked so that a concurrent DELETE of the plan cannot slip in between check and insert.
      const plan = await repo.findPlan(viewer.id, planId, { lock: true });
      if (!plan) throw notFound('Meal plan');
      return (await repo.insertSlots(plan.id, [slot]))[0]!;
    });
    return toSlot(row);
  }

  /** Puts a recipe in the plan's slot of that day and meal, replacing what was there. */
  async setSlot(actor: Actor, planId: string, input: SlotInput): Promise<Slot> {
    const viewer = viewerOf(actor);
    const slot = await this.#newSlot(viewer, input);
    const row = await this.#repo.transaction(async (repo) => {
      const plan = isUuid(planId) ? await repo.findPlan(viewer.id, planId, { lock: true }) : undefined;
      if (!plan) throw notFound('Meal plan');
      await repo.deleteSlots(plan.id, { day: slot.day, mealType: slot.mealType });
      return (await repo.insertSlots(plan.id, [slot]))[0]!;
    });
    return toSlot(row);
  }

  /**
   * PUT /api/meal-plans/:id/slots/:slotId. flex_type may only be set on a flex slot (one that is or
   * becomes is_flex); turning is_flex off clears flex_type. A new recipe_id renews recipe_title.
   */
  async updateSlot(
    actor: Actor,
    planId: string,
    slotId: string,
    changes: SlotUpdate,
  ): Promise<SlotWithCooking> {
    const viewer = viewerOf(actor);
    let cooking: SlotCooking | null = null;
    // One transaction with the plan locked: the slot read, the checks on it and the write see one
    // state (a concurrent update or a deleted plan cannot slip in between).
    const row = await this.#repo.transaction(async (repo) => {
      const plan = isUuid(planId) ? await repo.findPlan(viewer.id, planId, { lock: true }) : undefined;
      if (!plan) throw notFound('Meal plan');
      const current = isUuid(slotId) ? await repo.findSlot(plan.id, slotId) : undefined;
      if (!current) throw notFound('Meal plan slot');

      const values: SlotChanges = {
        servings: changes.servings === undefined ? undefined : checkServings(changes.servings),
        is_flex: changes.isFlex,
        is_completed: changes.isCompleted,
      };
      const willBeFlex = changes.isFlex ?? current.is_flex;
      if (changes.flexType !== undefined && changes.flexType !== null && !willBeFlex) {
        throw invalidField('flex_type', 'can only be set on a flex slot (is_flex true)');
      }
      if (changes.flexType !== undefined) values.flex_type = changes.flexType;
      if (!willBeFlex) values.flex_type = null;
      if (changes.recipeId !== undefined) {
        const recipe = changes.recipeId === null ? null : await this.#visibleRecipe(viewer, changes.recipeId);
        values.recipe_id = recipe?.id ?? null;
        values.recipe_title = recipe?.title ?? null;
        // Another recipe is another meal: completing the slot will cook that one.
        if (values.recipe_id !== current.recipe_id) values.cooked_at = null;
      }
      const after = { ...current, ...definedOnly(values) } as SlotRow;
      if (changes.isCompleted === true && after.cooked_at === null && after.recipe_id !== null) {
        cooking = await this.#cook(viewer, after.recipe_id, after.servings);
        if (cooking) values.cooked_at = cooking.cookedAt;
      }
      return repo.updateSlot(plan.id, current.id, values);
    });
    if (!row) throw notFound('Meal plan slot');
    return { ...toSlot(row), cooking };
  }

  /**
   * Completing a slot counts as cooking its recipe at the slot's servings: pantry deduction,
   * history, taste learning. A recipe the user can no longer see completes without cooking.
   */
  async #cook(viewer: Viewer, recipeId: string, servings: number): Promise<SlotCooking | null> {
    if (!this.#kitchen) return null;
    if (!(await this.#recipes.getVisible(recipeId, viewer))) return null;
    return this.#kitchen.cook(recipeId, viewer, servings);
  }

  async deleteSlot(userId: string, planId: string, slotId: string): Promise<void> {
    const plan = await this.#plan(userId, planId);
    if (!isUuid(slotId) || !(await this.#repo.deleteSlot(plan.id, slotId))) throw notFound('Meal plan slot');
  }

  /**
   * Marks the slots of that day and meal completed (the assistant's mark_meal_completed), cooking
   * each one not cooked yet, exactly as PUT …/slots/:slotId {is_completed: true} does; 404 when the
   * plan has none there.
   */
  async markCompleted(
    userId: string,
    planId: string,
    day: number,
    mealType: MealType,
  ): Promise<SlotWithCooking[]> {
    const viewer: Viewer = { id: userId, isAdmin: false };
    const slots = await this.#repo.transaction(async (repo) => {
      const plan = isUuid(planId) ? await repo.findPlan(userId, planId, { lock: true }) : undefined;
      if (!plan) throw notFound('Meal plan');
      const rows = await repo.slotsAt(plan.id, checkDay(day), mealType);
      if (rows.length === 0) throw notFound('Meal plan slot');
      const done: SlotWithCooking[] = [];
      for (const row of rows) {
        const values: SlotChanges = { is_completed: true };
        const cooking =
          row.cooked_at === null && row.recipe_id !== null
            ? await this.#cook(viewer, row.recipe_id, row.servings)
            : null;
        if (cooking) values.cooked_at = cooking.cookedAt;
        const updated = await repo.updateSlot(plan.id, row.id, values);
        done.push({ ...toSlot(updated ?? row), cooking });
      }
      return done;
    });
    return sortSlots(slots) as SlotWithCooking[];
  }

  /**
   * Writes a whole week at once (plan generation). A week that already has a plan is a 409 conflict
   * unless `replace` is set; then its slots are replaced and the plan keeps its id.
   */
  async replacePlan(
    actor: Actor,
    weekStart: string,
    slots: readonly SlotInput[],
    options: { replace: boolean },
  ): Promise<PlanDetail> {
    const viewer = viewerOf(actor);
    checkWeekStart(weekStart);
    const newSlots = await this.#newSlots(viewer, slots);
    return this.#repo.transaction(async (repo) => {
      let plan = await repo.insertPlan(viewer.id, weekStart);
      if (!plan) {
        if (!options.replace) {
          throw conflict(
            `A meal plan for the week of ${weekStart} already exists; set replace to overwrite it.`,
          );
        }
        plan = await repo.findPlanForWeek(viewer.id, weekStart, { lock: true });
        if (!plan) throw new Error(`meal plan for ${weekStart} vanished while being replaced`);
        await repo.deleteSlots(plan.id);
      }
      return toDetail(plan, await repo.insertSlots(plan.id, newSlots));
    });
  }

  /** GET /api/meal-plans/:id/nutrition (one serving per slot per person; see nutrition.ts). */
  async nutrition(actor: Actor, planId: string): Promise<WeekNutrition> {
    const viewer = viewerOf(actor);
    const plan = await this.getPlanDetail(viewer.id, planId);
    const ids = [...new Set(plan.slots.flatMap((s) => (s.recipeId ? [s.recipeId] : [])))];
    const recipes = await this.#recipes.getManyVisible(ids, viewer);
    return summarizeNutrition(plan.slots, recipes);
  }

  async #plan(userId: string, planId: string): Promise<MealPlanRow> {
    const plan = isUuid(planId) ? await this.#repo.findPlan(userId, planId) : undefined;
    if (!plan) throw notFound('Meal plan');
    return plan;
  }

  async #visibleRecipe(viewer: Viewer, recipeId: string): Promise<RecipeForUse> {
    const recipe = isUuid(recipeId) ? await this.#recipes.getVisible(recipeId, viewer) : undefined;
    if (!recipe) throw invalidField('recipe_id', 'no recipe with this id is visible to you');
    return recipe;
  }

  async #newSlot(viewer: Viewer, input: SlotInput): Promise<NewSlot> {
    return (await this.#newSlots(viewer, [input]))[0]!;
  }

  async #newSlots(viewer: Viewer, inputs: readonly SlotInput[]): Promise<NewSlot[]> {
    const ids = [...new Set(inputs.flatMap((s) => (s.recipeId ? [s.recipeId] : [])))];
    const bad = ids.find((id) => !isUuid(id));
    if (bad) throw invalidField('recipe_id', 'no recipe with this id is visible to you');
    const recipes = ids.length
      ? await this.#recipes.getManyVisible(ids, viewer)
      : new Map<string, RecipeForUse>();
    const needsDefault = inputs.some((s) => s.servings === undefined);
    const household = needsDefault ? (await this.#accounts.getProfile(viewer.id)).householdSize : 1;
    return inputs.map((input) => {
      const recipe = input.recipeId ? recipes.get(input.recipeId) : undefined;
      if (input.recipeId && !recipe)
        throw invalidField('recipe_id', 'no recipe with this id is visible to you');
      const isFlex = input.isFlex ?? false;
      if (input.flexType && !isFlex)
        throw invalidField('flex_type', 'can only be set on a flex slot (is_flex true)');
      if (!MEAL_TYPES.includes(input.mealType)) throw invalidField('meal_type', 'is not a meal type');
      return {
        day: checkDay(input.day),
        mealType: input.mealType,
        recipeId: recipe?.id ?? null,
        recipeTitle: recipe?.title ?? null,
        servings: checkServings(input.servings ?? household),
        isFlex,
        flexType: input.flexType ?? null,
      };
    });
  }
}

const viewerOf = (actor: Actor): Viewer =>
  typeof actor === 'string' ? { id: actor, isAdmin: false } : actor;

function checkWeekStart(weekStart: string): void {
  if (!isRealDate(weekStart)) throw invalidField('week_start', 'must be a date in the form YYYY-MM-DD');
  if (!isMonday(weekStart)) throw invalidField('week_start', 'must be a Monday');
}

function checkDay(day: number): number {
  if (!Number.isInteger(day) || day < 0 || day > 6)
    throw invalidField('day', 'must be 0 (Monday) to 6 (Sunday)');
  return day;
}

function checkServings(servings: number): number {
  if (!Number.isInteger(servings) || servings < 1 || servings > 100) {
    throw invalidField('servings', 'must be a whole number from 1 to 100');
  }
  return servings;
}

function toSlot(row: SlotRow): Slot {
  return {
    id: row.id,
    day: row.day,
    mealType: row.meal_type,
    recipeId: row.recipe_id,
    recipeTitle: row.recipe_title,
    servings: row.servings,
    isFlex: row.is_flex,
    flexType: row.flex_type,
    isCompleted: row.is_completed,
  };
}

/** The changes that set something (undefined means "leave as it is"). */
function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const MEAL_ORDER: Record<MealType, number> = { breakfast: 0, lunch: 1, dinner: 2, snack: 3 };

function sortSlots(slots: Slot[]): Slot[] {
  return slots.sort((a, b) => a.day - b.day || MEAL_ORDER[a.mealType] - MEAL_ORDER[b.mealType]);
}

function toDetail(plan: MealPlanRow, slots: readonly SlotRow[]): PlanDetail {
  const ordered = [...slots].sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
  return {
    id: plan.id,
    weekStart: plan.week_start,
    createdAt: plan.created_at,
    slots: sortSlots(ordered.map(toSlot)),
  };
}
