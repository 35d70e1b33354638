import type { MealType, RecipeForUse } from '../recipes/contract.ts';
import { DAY_NAMES } from './week.ts';

export interface MealNutrition {
  mealType: MealType;
  calories: number;
  protein: number;
}

export interface DayNutrition {
  day: number;
  dayName: string;
  totalCalories: number;
  totalProtein: number;
  totalCarbs: number;
  totalFat: number;
  meals: MealNutrition[];
}

export interface WeekNutrition {
  days: DayNutrition[];
  weekTotals: { avgDailyCalories: number; avgDailyProtein: number };
}

/** Every figure is rounded to one decimal (kcal and grams), after summing the unrounded values. */
const round1 = (value: number): number => Math.round(value * 10) / 10;

/**
 * What one person eats from the plan: one serving of each slot's recipe (the recipe's per-serving
 * nutrition, whatever the slot's servings). Slots without a recipe (or whose recipe is no longer
 * visible) are not meals. All 7 days are listed; the weekly averages are over the days that have
 * at least one meal (0 when none has).
 */
export function summarizeNutrition(
  slots: readonly { day: number; mealType: MealType; recipeId: string | null }[],
  recipes: ReadonlyMap<string, RecipeForUse>,
): WeekNutrition {
  const days = DAY_NAMES.map((dayName, day) => {
    const recipesOfDay = slots.flatMap((s) => {
      const recipe = s.day === day && s.recipeId ? recipes.get(s.recipeId) : undefined;
      return recipe ? [{ mealType: s.mealType, nutrition: recipe.nutrition }] : [];
    });
    const sum = (pick: (n: RecipeForUse['nutrition']) => number) =>
      recipesOfDay.reduce((total, r) => total + pick(r.nutrition), 0);
    return {
      raw: { calories: sum((n) => n.calories), protein: sum((n) => n.protein) },
      summary: {
        day,
        dayName,
        totalCalories: round1(sum((n) => n.calories)),
        totalProtein: round1(sum((n) => n.protein)),
        totalCarbs: round1(sum((n) => n.carbs)),
        totalFat: round1(sum((n) => n.fat)),
        meals: recipesOfDay.map((r) => ({
          mealType: r.mealType,
          calories: round1(r.nutrition.calories),
          protein: round1(r.nutrition.protein),
        })),
      },
    };
  });
  const eaten = days.filter((d) => d.summary.meals.length > 0);
  const average = (pick: (d: (typeof days)[number]) => number) =>
    eaten.length === 0 ? 0 : round1(eaten.reduce((total, d) => total + pick(d), 0) / eaten.length);
  return {
    days: days.map((d) => d.summary),
    weekTotals: {
      avgDailyCalories: average((d) => d.raw.calories),
      avgDailyProtein: average((d) => d.raw.protein),
    },
  };
}
