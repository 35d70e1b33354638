import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkWeeks, plannerInput, profileArb } from '../../../test/support/planner.ts';
import { ALLERGIES, DIETARY_RESTRICTIONS } from '../accounts/vocabulary.ts';
import type { MealType, RecipeForUse } from '../recipes/contract.ts';
import { candidateWeeks } from './planner.ts';

/**
 * Property: whatever the profile and the recipe pool, no generated week breaks a hard constraint,
 * and a slot stays empty only when no allowed recipe was left for it. The checks here are written
 * out independently of the planner's own filter (constraints.ts).
 */
const ALLERGEN_TAGS = [...ALLERGIES];
const CUISINES = ['italian', 'thai', 'indian', 'mexican', 'greek', 'japanese'];
const MEALS: MealType[] = ['breakfast', 'lunch', 'dinner', 'snack'];

const recipeArb = (index: number) =>
  fc
    .record({
      allergens: fc.subarray(ALLERGEN_TAGS),
      fits: fc.subarray([...DIETARY_RESTRICTIONS]),
      mealTypes: fc.subarray(MEALS),
      cuisine: fc.constantFrom(...CUISINES),
      prepTime: fc.integer({ min: 0, max: 90 }),
      cookTime: fc.integer({ min: 0, max: 120 }),
      calories: fc.integer({ min: 50, max: 1400 }),
      protein: fc.integer({ min: 0, max: 80 }),
      fat: fc.integer({ min: 0, max: 90 }),
      ingredientIds: fc.uniqueArray(fc.integer({ min: 1, max: 25 }), { maxLength: 6 }),
    })
    .map((r): RecipeForUse => ({
      id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      title: `Recipe ${index}`,
      description: '',
      cuisine: r.cuisine,
      difficulty: 'easy',
      prepTime: r.prepTime,
      cookTime: r.cookTime,
      servings: 2,
      mealTypes: r.mealTypes,
      ownerId: null,
      isPublic: true,
      ingredients: r.ingredientIds.map((id) => ({
        ingredientId: id,
        name: `ingredient ${id}`,
        quantity: 100,
        unit: 'g',
      })),
      steps: ['Cook.'],
      nutrition: { calories: r.calories, protein: r.protein, carbs: 30, fat: r.fat, fiber: 3 },
      allergens: r.allergens,
      fits: r.fits,
      imageUrl: null,
    }));

const poolArb = fc
  .integer({ min: 0, max: 40 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => recipeArb(i))));

describe('planner properties', () => {
  it('1,000 random profiles × random recipe pools: zero hard-constraint violations', () => {
    fc.assert(
      fc.property(poolArb, profileArb(CUISINES), (pool, profile) => checkWeeks(pool, profile)),
      { numRuns: 1000 },
    );
  }, 180_000);

  it('is deterministic', () => {
    fc.assert(
      fc.property(poolArb, profileArb(CUISINES), (pool, profile) => {
        const input = plannerInput(pool, profile);
        expect(candidateWeeks(input)).toEqual(candidateWeeks({ ...input, recipes: [...pool].reverse() }));
      }),
      { numRuns: 200 },
    );
  });
});
