import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Difficulty } from './contract.ts';

export interface RecipesTable {
  id: Generated<string>;
  slug: string | null;
  /** Hash of the seed a catalog row was last written from; null once an admin edited it. */
  seed_hash: string | null;
  owner_id: string | null;
  title: string;
  description: string;
  cuisine: string;
  difficulty: Difficulty;
  prep_time: number;
  cook_time: number;
  total_time: ColumnType<number, never, never>;
  servings: number;
  meal_types: string[];
  is_public: boolean;
  steps: string[];
  images: Generated<string[]>;
  calories: number;
  protein: number;
  carbs: number;
  fat: number;
  fiber: number;
  allergens: string[];
  fits: string[];
  ingredient_names: string;
  rating_count: Generated<number>;
  rating_sum: Generated<number>;
  search: ColumnType<string, never, never>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface RecipeIngredientsTable {
  recipe_id: string;
  position: number;
  ingredient_id: number;
  quantity: number;
  unit: string;
}

export interface RecipeRatingsTable {
  user_id: string;
  recipe_id: string;
  rating: number;
  notes: string | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface RecipeFavouritesTable {
  user_id: string;
  recipe_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface CookingHistoryTable {
  id: Generated<string>;
  user_id: string;
  recipe_id: string | null;
  title: string;
  servings: number;
  cooked_at: ColumnType<Date, Date | undefined, never>;
}

export interface RetiredCatalogSlugsTable {
  slug: string;
  retired_at: ColumnType<Date, Date | undefined, never>;
}

export interface RecipesTables {
  recipes: RecipesTable;
  recipe_ingredients: RecipeIngredientsTable;
  recipe_ratings: RecipeRatingsTable;
  recipe_favourites: RecipeFavouritesTable;
  cooking_history: CookingHistoryTable;
  retired_catalog_slugs: RetiredCatalogSlugsTable;
}

export type RecipeRow = Selectable<RecipesTable>;
export type RecipeIngredientRow = Selectable<RecipeIngredientsTable>;
