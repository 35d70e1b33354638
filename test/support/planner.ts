import fc from 'fast-check';
import { expect } from 'vitest';
import { ALLERGIES, DIETARY_RESTRICTIONS, HEALTH_GOALS } from '../../src/modules/accounts/vocabulary.ts';
import { violatesProfile } from '../../src/modules/ingredients/diet.ts';
import type { MealType, RecipeForUse } from '../../src/modules/recipes/contract.ts';
import { candidateWeeks, PLANNED_MEALS, type PlannerInput } from '../../src/modules/planner/planner.ts';

/**
 * Shared by the planner's property tests (random pools and the real catalog): random profiles and
 * an independent check of every hard constraint (written out here, not taken from the planner).
 */
export const profileArb = (cuisines: string[]) =>
  fc.record({
    allergies: fc.subarray([...ALLERGIES]),
    dietaryRestrictions: fc.subarray([...DIETARY_RESTRICTIONS], { maxLength: 3 }),
    healthGoals: fc.subarray([...HEALTH_GOALS], { maxLength: 2 }),
    maxPrepTime: fc.option(fc.integer({ min: 5, max: 200 }), { nil: undefined }),
    cuisines: fc.option(fc.subarray(cuisines, { minLength: 1, maxLength: 3 }), { nil: undefined }),
    avoidRepeated: fc.boolean(),
    pantry: fc.array(
      fc.record({
        ingredientId: fc.integer({ min: 1, max: 700 }),
        expiresOnDay: fc.option(fc.integer({ min: -2, max: 10 })),
      }),
      { maxLength: 5 },
    ),
  });

export type Profile = ReturnType<typeof profileArb> extends fc.Arbitrary<infer P> ? P : never;

export function allowedFor(recipe: RecipeForUse, mealType: MealType, p: Profile): boolean {
  if (violatesProfile(recipe, { allergies: p.allergies, dietaryRestrictions: p.dietaryRestrictions }).length)
    return false;
  if (p.maxPrepTime !== undefined && recipe.prepTime + recipe.cookTime > p.maxPrepTime) return false;
  if (p.cuisines && !p.cuisines.includes(recipe.cuisine)) return false;
  return recipe.mealTypes.includes(mealType);
}

export function plannerInput(recipes: readonly RecipeForUse[], p: Profile): PlannerInput {
  return {
    recipes,
    diet: { allergies: p.allergies, dietaryRestrictions: p.dietaryRestrictions },
    healthGoals: p.healthGoals,
    constraints: { maxPrepTime: p.maxPrepTime, cuisines: p.cuisines, avoidRepeated: p.avoidRepeated },
    taste: {
      cuisine_weights: { thai: 0.9, greek: 0.1 },
      difficulty_weights: { easy: 0.7 },
      ingredient_weights: {},
    },
    pantry: p.pantry,
  };
}

/** Every week the planner offers: zero violations, one recipe per slot, empty only when forced. */
export function checkWeeks(recipes: readonly RecipeForUse[], p: Profile): void {
  const weeks = candidateWeeks(plannerInput(recipes, p));
  expect(weeks.length).toBeGreaterThan(0);
  const allowed = new Map(PLANNED_MEALS.map((m) => [m, recipes.filter((r) => allowedFor(r, m, p))]));
  for (const week of weeks) {
    const used = new Set<string>();
    const filled = new Set<string>();
    for (const slot of week.slots) {
      expect(allowedFor(slot.recipe, slot.mealType, p)).toBe(true);
      if (p.avoidRepeated) expect(used.has(slot.recipe.id)).toBe(false);
      used.add(slot.recipe.id);
      expect(filled.has(`${slot.day}${slot.mealType}`)).toBe(false);
      filled.add(`${slot.day}${slot.mealType}`);
    }
    for (let day = 0; day < 7; day++) {
      for (const mealType of PLANNED_MEALS) {
        if (filled.has(`${day}${mealType}`)) continue;
        const usedBefore = new Set(
          week.slots
            .filter(
              (s) =>
                s.day < day ||
                (s.day === day && PLANNED_MEALS.indexOf(s.mealType) < PLANNED_MEALS.indexOf(mealType)),
            )
            .map((s) => s.recipe.id),
        );
        const possible = allowed.get(mealType)!.filter((r) => !(p.avoidRepeated && usedBefore.has(r.id)));
        expect(possible).toEqual([]);
      }
    }
  }
}
