import type { ColumnType, Selectable } from 'kysely';

export type IngredientSource = 'seed' | 'usda';

export interface IngredientsTable {
  id: ColumnType<number, number | undefined, never>;
  name: string;
  aliases: string[];
  category: string;
  default_unit: 'g' | 'ml' | 'piece';
  kcal: number;
  protein: number;
  carbs: number;
  fat: number;
  fiber: number;
  allergens: string[];
  diet: string[];
  density: number | null;
  piece_g: number | null;
  measures: ColumnType<Record<string, number>, string, string>;
  usda_ndb: string | null;
  source: IngredientSource;
  search_text: string;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface IngredientsTables {
  ingredients: IngredientsTable;
}

export type IngredientRow = Selectable<IngredientsTable>;
