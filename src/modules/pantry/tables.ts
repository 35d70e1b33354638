import type { ColumnType, Generated, Selectable } from 'kysely';

export const LOCATIONS = ['fridge', 'freezer', 'pantry', 'other'] as const;
export type Location = (typeof LOCATIONS)[number];

export interface InventoryItemsTable {
  id: Generated<string>;
  user_id: string;
  ingredient_id: number;
  quantity: number;
  unit: string;
  location: Location;
  /** `YYYY-MM-DD` (DATE columns come back as strings). */
  expiry_date: string | null;
  added_at: ColumnType<Date, Date | undefined, never>;
}

export interface PantryTables {
  inventory_items: InventoryItemsTable;
}

export type InventoryRow = Selectable<InventoryItemsTable>;
