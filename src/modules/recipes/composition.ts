import type { IngredientInfo } from '../ingredients/contract.ts';
import { recipeDietProfile } from '../ingredients/diet.ts';
import { normalizeUnit, toGrams } from '../ingredients/units.ts';
import type { Difficulty, MealType, RecipeNutrition } from './contract.ts';
import type { RecipeValues } from './repository.ts';

/** One ingredient line with its reference data. */
export interface ResolvedLine {
  info: IngredientInfo;
  quantity: number;
  unit: string;
}

/** What a recipe's ingredients determine: cached on the row, recomputed on every write. */
export interface Composition {
  nutrition: RecipeNutrition;
  allergens: string[];
  fits: string[];
  /** Ingredient names, space separated: the C-weighted part of the full-text index. */
  ingredientNames: string;
}

/**
 * The unit as stored: the canonical form of a known unit ("Tbsp" → "tbsp"), or a measure this
 * ingredient names itself ("lemon" of lemon juice). Undefined when neither.
 */
export function resolveUnit(unit: string, info: IngredientInfo): string | undefined {
  const known = normalizeUnit(unit);
  if (known !== undefined) return known;
  const key = unit.trim().toLowerCase();
  return info.measures[key] !== undefined ? key : undefined;
}

/**
 * Nutrition per serving: each line is converted to grams (units.toGrams: weight directly, volume
 * through the ingredient's density, pieces and named measures through its piece weight and
 * measures) and contributes grams/100 × its per-100 g values. A line that cannot be converted
 * (say "1 cup" of an ingredient without a density) contributes nothing. The sum is divided by
 * the servings. Values are kept unrounded; presenters round.
 */
export function nutritionPerServing(lines: readonly ResolvedLine[], servings: number): RecipeNutrition {
  const total = { calories: 0, protein: 0, carbs: 0, fat: 0, fiber: 0 };
  for (const line of lines) {
    const grams = toGrams(line.quantity, line.unit, line.info);
    if (grams === undefined || !Number.isFinite(grams)) continue;
    const factor = grams / 100;
    const n = line.info.nutrition;
    total.calories += n.kcal * factor;
    total.protein += n.protein * factor;
    total.carbs += n.carbs * factor;
    total.fat += n.fat * factor;
    total.fiber += n.fiber * factor;
  }
  const per = Math.max(1, servings);
  return {
    calories: total.calories / per,
    protein: total.protein / per,
    carbs: total.carbs / per,
    fat: total.fat / per,
    fiber: total.fiber / per,
  };
}

export function compose(lines: readonly ResolvedLine[], servings: number): Composition {
  const nutrition = nutritionPerServing(lines, servings);
  const infos = lines.map((l) => l.info);
  const profile = recipeDietProfile(infos, nutrition.carbs);
  return {
    nutrition,
    allergens: [...profile.allergens].sort(),
    fits: [...profile.fits].sort(),
    ingredientNames: [...new Set(infos.map((i) => i.name))].join(' '),
  };
}

/** A recipe's own fields, before the derived ones are added. */
export interface RecipeFields {
  title: string;
  description: string;
  cuisine: string;
  difficulty: Difficulty;
  prepTime: number;
  cookTime: number;
  servings: number;
  steps: string[];
  isPublic: boolean;
  mealTypes: MealType[];
}

/** The row to store: fields tidied (cuisine lower case) plus everything derived from the lines. */
export function recipeValues(fields: RecipeFields, lines: readonly ResolvedLine[]): RecipeValues {
  const c = compose(lines, fields.servings);
  return {
    title: fields.title.trim(),
    description: fields.description.trim(),
    cuisine: fields.cuisine.trim().toLowerCase(),
    difficulty: fields.difficulty,
    prep_time: fields.prepTime,
    cook_time: fields.cookTime,
    servings: fields.servings,
    meal_types: [...new Set(fields.mealTypes)],
    is_public: fields.isPublic,
    steps: fields.steps.map((s) => s.trim()),
    calories: c.nutrition.calories,
    protein: c.nutrition.protein,
    carbs: c.nutrition.carbs,
    fat: c.nutrition.fat,
    fiber: c.nutrition.fiber,
    allergens: c.allergens,
    fits: c.fits,
    ingredient_names: c.ingredientNames,
  };
}
