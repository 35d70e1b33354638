import type { RecipeForUse } from '../recipes/contract.ts';

/**
 * The planner's objective, per slot (taste, health and pantry in [0, 1]; variety ≤ 1):
 *
 *   slot score = 0.30 · taste + 0.30 · health + 0.20 · pantry + 0.20 · variety
 *
 * - taste: mean of the user's cuisine weight, difficulty weight and the mean weight of the recipe's
 *   ingredients that have one (preference weights, neutral 0.5).
 * - health: closeness of the serving's calories to the meal's target (daily target by health goal ×
 *   the meal's share: breakfast 25 %, lunch 35 %, dinner 40 %), averaged with a goal-specific macro
 *   term: muscle_gain wants ≥ 25 % of energy from protein, weight_loss ≥ 20 % protein, heart_health
 *   ≤ 30 % from fat; other goals count calories only.
 * - pantry: pantry ingredients the recipe uses, expiring ones counted fully when the slot's day is
 *   on or before their expiry and weighted toward the start of the week (day 0 counts 1, day 6 4/7),
 *   non-expiring stock at 0.25; an ingredient already used by an earlier slot counts half each time.
 *   Capped at 1 (two expiring items fill it).
 * - variety: 1, minus 0.5 when the day already has this cuisine, minus 0.25 when the same meal the day
 *   before had it, minus 0.7 per earlier use of the very recipe (only possible without
 *   avoid_repeated). Not clamped: it goes below 0 for repeats, so that the same-day penalty still
 *   separates candidates when every recipe has been used several times.
 *
 * A plan's objective is the sum of its slot scores plus 1 per filled slot. The planner fills every
 * slot some allowed recipe fits.
 */
export const WEIGHTS = { taste: 0.3, health: 0.3, pantry: 0.2, variety: 0.2 } as const;

export const DAILY_CALORIES: Record<string, number> = {
  weight_loss: 1700,
  maintenance: 2100,
  heart_health: 2000,
  more_energy: 2300,
  muscle_gain: 2600,
};
const DEFAULT_DAILY_CALORIES = 2100;
export const MEAL_SHARE: Record<string, number> = { breakfast: 0.25, lunch: 0.35, dinner: 0.4, snack: 0.1 };

export interface TasteWeights {
  cuisine_weights: Record<string, number>;
  difficulty_weights: Record<string, number>;
  ingredient_weights: Record<string, number>;
}

/** Pantry stock as the planner sees it: days from the week's Monday to expiry (null = no date). */
export interface PantrySignal {
  ingredientId: number;
  expiresOnDay: number | null;
}

export interface SlotContext {
  day: number;
  mealType: string;
  /** Cuisines already on this day. */
  dayCuisines: string[];
  /** Cuisine of the same meal the day before. */
  previousSameMeal: string | undefined;
  /** Uses of each recipe so far. */
  recipeUses: Map<string, number>;
  /** Uses of each pantry ingredient so far. */
  pantryUses: Map<number, number>;
}

const NEUTRAL = 0.5;
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

export function tasteScore(recipe: RecipeForUse, weights: TasteWeights): number {
  const cuisine = weights.cuisine_weights[recipe.cuisine.toLowerCase()] ?? NEUTRAL;
  const difficulty = weights.difficulty_weights[recipe.difficulty] ?? NEUTRAL;
  const known = recipe.ingredients
    .map((i) => weights.ingredient_weights[i.name.toLowerCase()])
    .filter((w): w is number => w !== undefined);
  const ingredients = known.length ? known.reduce((a, b) => a + b, 0) / known.length : NEUTRAL;
  return clamp01((cuisine + difficulty + ingredients) / 3);
}

export function dailyCalorieTarget(goals: readonly string[]): number {
  const targets = goals.map((g) => DAILY_CALORIES[g]).filter((t): t is number => t !== undefined);
  return targets.length ? targets.reduce((a, b) => a + b, 0) / targets.length : DEFAULT_DAILY_CALORIES;
}

export function healthScore(recipe: RecipeForUse, mealType: string, goals: readonly string[]): number {
  const target = dailyCalorieTarget(goals) * (MEAL_SHARE[mealType] ?? 0.3);
  const calories = recipe.nutrition.calories;
  const calorieFit = clamp01(1 - Math.abs(calories - target) / target);
  const energy = Math.max(1, calories);
  const macroTerms: number[] = [];
  if (goals.includes('muscle_gain')) macroTerms.push(clamp01((recipe.nutrition.protein * 4) / energy / 0.25));
  if (goals.includes('weight_loss')) macroTerms.push(clamp01((recipe.nutrition.protein * 4) / energy / 0.2));
  if (goals.includes('heart_health')) {
    const fatShare = (recipe.nutrition.fat * 9) / energy;
    macroTerms.push(fatShare <= 0.3 ? 1 : clamp01(1 - (fatShare - 0.3) / 0.3));
  }
  if (macroTerms.length === 0) return calorieFit;
  return (calorieFit + macroTerms.reduce((a, b) => a + b, 0) / macroTerms.length) / 2;
}

export function pantryScore(
  recipe: RecipeForUse,
  day: number,
  pantry: ReadonlyMap<number, PantrySignal>,
  uses: ReadonlyMap<number, number>,
): number {
  let total = 0;
  for (const id of new Set(recipe.ingredients.map((i) => i.ingredientId))) {
    const stock = pantry.get(id);
    if (!stock) continue;
    const repeat = 0.5 ** (uses.get(id) ?? 0);
    if (stock.expiresOnDay === null || stock.expiresOnDay > 6) total += 0.25 * repeat;
    else if (day <= stock.expiresOnDay) total += ((7 - day) / 7) * repeat;
  }
  return clamp01(total / 2);
}

export function varietyScore(recipe: RecipeForUse, ctx: SlotContext): number {
  const cuisine = recipe.cuisine.toLowerCase();
  let score = 1;
  if (ctx.dayCuisines.includes(cuisine)) score -= 0.5;
  if (ctx.previousSameMeal === cuisine) score -= 0.25;
  score -= 0.7 * (ctx.recipeUses.get(recipe.id) ?? 0);
  return score;
}
