/**
 * What the recipes module offers other modules (pantry sync, meal plans, shopping-list generation,
 * chat tools, recipe/plan generation, image proxy). Implemented by recipes/service.ts.
 */
export type Difficulty = 'easy' | 'medium' | 'hard';
export type MealType = 'breakfast' | 'lunch' | 'dinner' | 'snack';

export interface Viewer {
  id: string;
  isAdmin: boolean;
}

export interface RecipeIngredientLine {
  ingredientId: number;
  name: string;
  quantity: number;
  unit: string;
}

export interface RecipeNutrition {
  calories: number;
  protein: number;
  carbs: number;
  fat: number;
  fiber: number;
}

/** A recipe with everything planners and tools need, nutrition per serving. */
export interface RecipeForUse {
  id: string;
  title: string;
  description: string;
  cuisine: string;
  difficulty: Difficulty;
  prepTime: number;
  cookTime: number;
  servings: number;
  mealTypes: MealType[];
  ownerId: string | null;
  isPublic: boolean;
  ingredients: RecipeIngredientLine[];
  steps: string[];
  nutrition: RecipeNutrition;
  /** Derived from the ingredients (ingredients/diet.ts). */
  allergens: string[];
  /** Dietary restrictions this recipe satisfies. */
  fits: string[];
  imageUrl: string | null;
}

export interface RecipeCandidateFilter {
  mealType?: MealType;
  /** prep + cook ≤ this */
  maxTotalTime?: number;
  /** lower-case cuisine names; empty or absent = any */
  cuisines?: string[];
  /** Dietary restrictions every candidate fits (its `fits` contains all of them); filtered in SQL. */
  fits?: string[];
  /**
   * Allergen tags no candidate carries; filtered in SQL. Expand a user's allergies first with
   * ingredients/diet.ts `allergensExcludedBy` (a "nuts" allergy excludes nuts, peanuts, tree_nuts).
   */
  withoutAllergens?: string[];
}

/**
 * A bounded sample of the candidates, for planners over a large catalog. Each meal type gets its own
 * draws, every draw walks the recipe ids from a point chosen by `seed` (wrapping around), so the
 * pool is stable for one seed, differs between seeds, and holds every candidate when there are few.
 */
export interface CandidatePoolRequest {
  mealTypes: MealType[];
  /** Recipes per meal type drawn from the whole (filtered) catalog. */
  perMealType: number;
  /** Recipes per meal type in each extra draw: the viewer's own, liked cuisines, given ingredients. */
  perSource: number;
  seed: string;
  /** Lower-case cuisines the user likes: drawn from on their own, so they are in the pool. */
  favourCuisines?: string[];
  /** Ingredient ids (e.g. pantry stock to use up): recipes using any of them are drawn on their own. */
  usingIngredients?: number[];
}

export interface RecipeSearchQuery {
  q?: string;
  cuisine?: string;
  difficulty?: Difficulty;
  maxTime?: number;
  /** One diet, or several that must all fit (the assistant searches with a user's restrictions). */
  dietary?: string | readonly string[];
  mealType?: MealType;
  limit: number;
  offset: number;
}

export interface RecipeSummary {
  id: string;
  title: string;
  description: string;
  cuisine: string;
  difficulty: Difficulty;
  prepTime: number;
  cookTime: number;
  servings: number;
  calories: number;
  isFavourite: boolean;
  ratingAvg: number;
  ratingCount: number;
  imageUrl: string | null;
}

export interface RecipeCatalog {
  /** A recipe the viewer may see (catalog/public, own, or any for admins); undefined otherwise. */
  getVisible(recipeId: string, viewer: Viewer | undefined): Promise<RecipeForUse | undefined>;
  getManyVisible(
    recipeIds: readonly string[],
    viewer: Viewer | undefined,
  ): Promise<Map<string, RecipeForUse>>;
  /** Every recipe visible to the viewer that passes the filter (for planners; may be large). */
  listCandidates(viewer: Viewer, filter: RecipeCandidateFilter): Promise<RecipeForUse[]>;
  /**
   * The candidates that pass the filter, at most `perMealType + 3 · perSource` per meal type
   * (CandidatePoolRequest): what a planner needs when the catalog is too large to score whole.
   */
  listCandidatePool(
    viewer: Viewer,
    filter: RecipeCandidateFilter,
    pool: CandidatePoolRequest,
  ): Promise<RecipeForUse[]>;
  /** The same search as GET /api/recipes. */
  search(
    query: RecipeSearchQuery,
    viewer: Viewer | undefined,
  ): Promise<{ items: RecipeSummary[]; total: number }>;
  /**
   * Attaches a generated image URL (hero: becomes the first image; step: appended) when the actor
   * owns the recipe or is an admin. Answers whether it was attached.
   */
  attachImage(recipeId: string, url: string, kind: 'hero' | 'step', actor: Viewer): Promise<boolean>;
  /** Catalog recipes that have no image yet, by title. */
  catalogWithoutImages(): Promise<{ id: string; title: string; description: string }[]>;
}
