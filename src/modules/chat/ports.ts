import type { UserProfile } from '../accounts/service.ts';
import type { IngredientCatalog } from '../ingredients/contract.ts';
import type { PantryStockItem } from '../pantry/contract.ts';
import type { NewPantryItem } from '../pantry/service.ts';
import type { MealType, RecipeCatalog, Viewer } from '../recipes/contract.ts';

/**
 * What the assistant needs from other modules, named by its use. The composition root
 * (modules/index.ts) passes the real services; tools call exactly what the routes call.
 */
export interface PlanSlotView {
  id: string;
  day: number;
  mealType: string;
  recipeId: string | null;
  recipeTitle: string;
  servings: number;
  isCompleted: boolean;
}

export interface PlanView {
  id: string;
  weekStart: string;
  slots: PlanSlotView[];
}

export interface AssistantMealPlans {
  /** Monday (UTC) of the current week, `YYYY-MM-DD`. */
  currentWeekStart(): string;
  getPlan(userId: string, weekStart: string): Promise<PlanView | undefined>;
  /** Puts the recipe in the slot (creating the week's plan when needed), replacing what was there. */
  setSlot(
    viewer: Viewer,
    weekStart: string,
    slot: { day: number; mealType: MealType; recipeId: string; servings: number },
  ): Promise<PlanSlotView>;
  /** false when the week has no such slot. */
  markCompleted(userId: string, weekStart: string, day: number, mealType: MealType): Promise<boolean>;
  /** Removes every slot of the week's plan; answers how many there were. */
  clearPlan(userId: string, weekStart: string): Promise<number>;
}

export interface AssistantPantry {
  list(userId: string): Promise<PantryStockItem[]>;
  add(userId: string, item: NewPantryItem): Promise<PantryStockItem>;
  /** Throws not_found for an unknown id or another user's item. */
  remove(userId: string, itemId: string): Promise<void>;
}

export interface AssistantProfiles {
  getProfile(userId: string): Promise<UserProfile>;
}

export interface AssistantPreferences {
  get(userId: string): Promise<{
    cuisine_weights: Record<string, number>;
    difficulty_weights: Record<string, number>;
    ingredient_weights: Record<string, number>;
  }>;
}

export interface AssistantDeps {
  profiles: AssistantProfiles;
  preferences: AssistantPreferences;
  recipes: RecipeCatalog;
  ingredients: IngredientCatalog;
  pantry: AssistantPantry;
  mealPlans: AssistantMealPlans;
}
