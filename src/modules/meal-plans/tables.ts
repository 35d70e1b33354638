import type { ColumnType, Generated, Selectable } from 'kysely';
import type { MealType } from '../recipes/contract.ts';

export const MEAL_TYPES = ['breakfast', 'lunch', 'dinner', 'snack'] as const satisfies readonly MealType[];
export const FLEX_TYPES = ['effort', 'nutrition', 'mental', 'social'] as const;
export type FlexType = (typeof FLEX_TYPES)[number];

export interface MealPlansTable {
  id: Generated<string>;
  user_id: string;
  /** `YYYY-MM-DD`, a Monday. */
  week_start: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface MealPlanSlotsTable {
  id: Generated<string>;
  plan_id: string;
  day: number;
  meal_type: MealType;
  recipe_id: string | null;
  recipe_title: string | null;
  servings: number;
  is_flex: Generated<boolean>;
  flex_type: FlexType | null;
  is_completed: Generated<boolean>;
  /** Set when completing the slot cooked its recipe; kept when it is un-completed (no second deduction). */
  cooked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface MealPlanTables {
  meal_plans: MealPlansTable;
  meal_plan_slots: MealPlanSlotsTable;
}

export type MealPlanRow = Selectable<MealPlansTable>;
export type SlotRow = Selectable<MealPlanSlotsTable>;
