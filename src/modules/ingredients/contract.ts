/**
 * What the ingredients module offers other modules. Implemented by ingredients/service.ts
 * (IngredientsService implements IngredientCatalog); units and diet rules are pure functions in
 * ingredients/units.ts and ingredients/diet.ts.
 */
export interface NutritionPer100g {
  kcal: number;
  protein: number;
  carbs: number;
  fat: number;
  fiber: number;
}

export interface IngredientInfo {
  id: number;
  name: string;
  aliases: string[];
  category: string;
  defaultUnit: 'g' | 'ml' | 'piece';
  nutrition: NutritionPer100g;
  /** Contract allergy vocabulary (nuts, peanuts, tree_nuts, dairy, gluten, wheat, ...). */
  allergens: string[];
  /** Diet facts: meat, pork, poultry, fish, shellfish, animal_product, dairy, egg, gluten, alcohol, honey. */
  diet: string[];
  /** g per ml, when volume measures make sense. */
  density: number | null;
  /** g per piece, when the ingredient is counted. */
  pieceGrams: number | null;
  /** Named measures in grams (clove, can, slice, bunch, ...). */
  measures: Record<string, number>;
}

export interface IngredientCatalog {
  get(id: number): Promise<IngredientInfo | undefined>;
  /** Every id that exists, keyed by id; unknown ids are simply absent. */
  getMany(ids: readonly number[]): Promise<Map<number, IngredientInfo>>;
  /** Free text ("Tomatoes", "2 cloves garlic" is NOT parsed here: a name or alias) → ingredient. */
  resolveName(name: string): Promise<IngredientInfo | undefined>;
  /** Every ingredient (cached; the table is small): for matchers that scan names and aliases. */
  all(): Promise<IngredientInfo[]>;
}

/*
 * ingredients/units.ts exports (pure):
 *   normalizeUnit(unit: string): string | undefined           // "Tbsp" → "tbsp", "grams" → "g", "cloves" → "clove"
 *   convertQuantity(quantity: number, from: string, to: string, ingredient?: IngredientInfo): number | undefined
 *     within weight (g, kg, oz, lb), within volume (ml, l, tsp, tbsp, cup, fl oz), pieces ("piece"),
 *     and across them through density / pieceGrams / measures; undefined when impossible.
 *   toGrams(quantity, unit, ingredient): number | undefined   // for nutrition
 *
 * ingredients/diet.ts exports (pure) — the hard-constraint rules used everywhere food is chosen:
 *   recipeDietProfile(ingredients: IngredientInfo[], carbsPerServing: number):
 *     { allergens: string[]; fits: string[] }   // fits ⊆ contract dietary restrictions
 *   violatesProfile(recipe: { allergens: string[]; fits: string[] },
 *                   user: { allergies: string[]; dietaryRestrictions: string[] }): string[]  // reasons; [] = safe
 *   A user's "nuts" allergy excludes nuts, peanuts and tree_nuts; "gluten" excludes gluten; "wheat" wheat.
 */
