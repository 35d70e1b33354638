import { describe, expect, it } from 'vitest';
import type { MealType, RecipeForUse } from '../recipes/contract.ts';
import { dailyCalorieTarget, healthScore, tasteScore } from './objective.ts';
import { planWeek } from './planner.ts';

let n = 0;
function recipe(overrides: Partial<RecipeForUse> = {}): RecipeForUse {
  n += 1;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    title: `Recipe ${n}`,
    description: '',
    cuisine: 'italian',
    difficulty: 'easy',
    prepTime: 10,
    cookTime: 20,
    servings: 2,
    mealTypes: ['breakfast', 'lunch', 'dinner'] as MealType[],
    ownerId: null,
    isPublic: true,
    ingredients: [],
    steps: [],
    nutrition: { calories: 600, protein: 20, carbs: 70, fat: 20, fiber: 5 },
    allergens: [],
    fits: [],
    imageUrl: null,
    ...overrides,
  };
}

const neutral = { cuisine_weights: {}, difficulty_weights: {}, ingredient_weights: {} };
const input = (recipes: RecipeForUse[], goals: string[] = [], extra: object = {}) => ({
  recipes,
  diet: { allergies: [], dietaryRestrictions: [] },
  healthGoals: goals,
  constraints: { avoidRepeated: false },
  taste: neutral,
  pantry: [],
  ...extra,
});

describe('planner objective', () => {
  it('steers calories toward the goal’s target', () => {
    expect(dailyCalorieTarget(['weight_loss'])).toBeLessThan(dailyCalorieTarget(['muscle_gain']));
    const light = recipe({ nutrition: { calories: 420, protein: 30, carbs: 40, fat: 12, fiber: 8 } });
    const heavy = recipe({ nutrition: { calories: 1100, protein: 30, carbs: 120, fat: 50, fiber: 8 } });
    expect(healthScore(light, 'dinner', ['weight_loss'])).toBeGreaterThan(
      healthScore(heavy, 'dinner', ['weight_loss']),
    );
    const week = planWeek(input([light, heavy], ['weight_loss'], { constraints: { avoidRepeated: false } }));
    expect(week.slots.filter((s) => s.recipe.id === light.id).length).toBeGreaterThan(10);
  });

  it('muscle_gain prefers protein at equal calories', () => {
    const lean = recipe({ nutrition: { calories: 900, protein: 60, carbs: 90, fat: 25, fiber: 8 } });
    const starchy = recipe({ nutrition: { calories: 900, protein: 15, carbs: 160, fat: 20, fiber: 8 } });
    expect(healthScore(lean, 'dinner', ['muscle_gain'])).toBeGreaterThan(
      healthScore(starchy, 'dinner', ['muscle_gain']),
    );
  });

  it('follows preference weights and spreads cuisines', () => {
    const thai = recipe({ cuisine: 'thai' });
    const greek = recipe({ cuisine: 'greek' });
    const taste = {
      cuisine_weights: { thai: 0.95, greek: 0.1 },
      difficulty_weights: {},
      ingredient_weights: {},
    };
    expect(tasteScore(thai, taste)).toBeGreaterThan(tasteScore(greek, taste));
    const pool = [thai, greek, recipe({ cuisine: 'indian' }), recipe({ cuisine: 'mexican' })];
    const week = planWeek(input(pool, [], { taste }));
    for (let day = 0; day < 7; day++) {
      const cuisines = week.slots.filter((s) => s.day === day).map((s) => s.recipe.cuisine);
      expect(new Set(cuisines).size).toBe(3);
    }
    expect(week.slots.filter((s) => s.recipe.cuisine === 'thai').length).toBeGreaterThan(
      week.slots.filter((s) => s.recipe.cuisine === 'greek').length,
    );
  });
});
