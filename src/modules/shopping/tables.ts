import type { ColumnType, Generated, Selectable } from 'kysely';

export interface ShoppingListItemsTable {
  id: Generated<string>;
  user_id: string;
  ingredient_id: number;
  quantity: number;
  unit: string;
  is_checked: Generated<boolean>;
  added_at: ColumnType<Date, Date | undefined, never>;
  source_meal_plan_id: string | null;
}

export interface ShoppingListPlanSharesTable {
  item_id: string;
  meal_plan_id: string;
  quantity: number;
}

export interface ShoppingTables {
  shopping_list_items: ShoppingListItemsTable;
  shopping_list_plan_shares: ShoppingListPlanSharesTable;
}

export type ShoppingRow = Selectable<ShoppingListItemsTable>;
