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

/** One row per user whose pantry ever changed; written by triggers on inventory_items only. */
export interface PantryVersionsTable {
  user_id: string;
  version: string;
}

export interface PantryTables {
  inventory_items: InventoryItemsTable;
  pantry_versions: PantryVersionsTable;
}

export type InventoryRow = Selectable<InventoryItemsTable>;
