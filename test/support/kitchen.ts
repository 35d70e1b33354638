import type { PlanDetail } from '../../src/modules/meal-plans/service.ts';
import { addDays, utcDate } from '../../src/modules/pantry/dates.ts';
import type { PantryItem } from '../../src/modules/pantry/service.ts';
import type { Location } from '../../src/modules/pantry/tables.ts';
import type { MealType } from '../../src/modules/recipes/contract.ts';
import { weekStartOf } from '../../src/modules/meal-plans/week.ts';
import type { TestApp } from './app.ts';
import type { TestUser } from './factories.ts';
import { ensureIngredients } from './recipes.ts';

/**
 * Reference ingredient ids used by the kitchen tests, with the facts the hand-computed expectations
 * rest on (from src/modules/ingredients/seed/ingredients.ts).
 */
export const ING = {
  /** default g, density 0.53 g/ml, category "pantry staples" */
  flour: 370,
  /** default ml, density 1.03 g/ml, category "dairy & eggs" */
  milk: 271,
  /** default g, piece 175 g, no density, category "meat & fish" */
  chicken: 215,
  /** default piece, piece 50 g, density 1.03 */
  egg: 264,
  /** default g, density 0.78 */
  rice: 322,
  /** default ml, density 0.91 */
  oliveOil: 504,
} as const;

/** US cup in millilitres (ingredients/units.ts). */
export const CUP_ML = 236.588;

/** Today's UTC date shifted by `days`. */
export const dayFromToday = (days: number): string => addDays(utcDate(new Date()), days);

/** The Monday of this week (UTC) shifted by `weeks`. */
export const mondayIn = (weeks: number): string => addDays(weekStartOf(new Date()), weeks * 7);

/** Puts real stock in a user's pantry through the pantry service. */
export async function addStock(
  ctx: TestApp,
  owner: TestUser,
  item: {
    ingredientId: number;
    quantity: number;
    unit: string;
    location?: Location;
    expiryDate?: string | null;
  },
): Promise<PantryItem> {
  await ensureIngredients(ctx);
  return ctx.services.pantry.add(owner.user.id, {
    ingredientId: item.ingredientId,
    quantity: item.quantity,
    unit: item.unit,
    location: item.location ?? 'pantry',
    expiryDate: item.expiryDate ?? null,
  });
}

/** A real meal plan with slots, through the meal-plans service. */
export async function createPlan(
  ctx: TestApp,
  owner: TestUser,
  weekStart: string,
  slots: { day: number; mealType: MealType; recipeId: string | null; servings?: number }[] = [],
): Promise<PlanDetail> {
  const plan = await ctx.services.mealPlans.createPlan(owner.user.id, weekStart);
  for (const slot of slots) await ctx.services.mealPlans.addSlot(owner.user.id, plan.id, slot);
  return ctx.services.mealPlans.getPlanDetail(owner.user.id, plan.id);
}
