/** What the pantry module offers others. Implemented by pantry/service.ts. */
export interface DeductionLine {
  ingredientId: number;
  quantity: number;
  unit: string;
}

export interface DeductionResult {
  /** Inventory rows changed (reduced or removed). */
  updatedItems: number;
  /** Names of ingredients whose rows reached zero and were removed. */
  depletedItems: string[];
  /** How many of the lines took anything from the pantry. */
  deductedIngredients: number;
  /** What each line took from the pantry, and what the pantry lacked (in the line's unit). */
  deducted: DeductedAmount[];
  missing: DeductedAmount[];
}

export interface DeductedAmount {
  ingredientId: number;
  name: string;
  quantity: number;
  unit: string;
}

export interface PantryStockItem {
  id: string;
  ingredientId: number;
  name: string;
  quantity: number;
  unit: string;
  location: string;
  expiryDate: string | null;
  isExpiringSoon: boolean;
}

export interface PantryAccess {
  /** Atomic, soonest-expiring first, unit-aware; lines that cannot be converted are left untouched. */
  deduct(userId: string, lines: readonly DeductionLine[]): Promise<DeductionResult>;
  /** The user's whole pantry, soonest expiry first. */
  list(userId: string): Promise<PantryStockItem[]>;
}
