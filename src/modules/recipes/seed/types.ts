import type { Difficulty, MealType } from '../contract.ts';

/** One hand-written catalog recipe. Ingredient names must be reference ingredient names or aliases. */
export interface RecipeSeed {
  /** Stable key, kebab-case, unique: the catalog is upserted by it. */
  slug: string;
  title: string;
  description: string;
  /** Lower-case cuisine: italian, mexican, indian, chinese, japanese, thai, french, greek, middle eastern, american, korean, vietnamese, spanish, british, moroccan, ... */
  cuisine: string;
  meal_types: MealType[];
  difficulty: Difficulty;
  prep_time: number;
  cook_time: number;
  servings: number;
  ingredients: { name: string; quantity: number; unit: string }[];
  steps: string[];
}
