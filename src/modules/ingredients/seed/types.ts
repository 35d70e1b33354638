/** Shape of one hand-written reference ingredient (the seed of the `ingredients` table). */

export const INGREDIENT_CATEGORIES = [
  'produce',
  'meat & fish',
  'dairy & eggs',
  'bakery',
  'pantry staples',
  'spices & condiments',
  'frozen',
  'drinks',
  'other',
] as const;
export type IngredientCategory = (typeof INGREDIENT_CATEGORIES)[number];

/** The contract's allergy vocabulary (contract §3), defined once with the profile that uses it. */
import { ALLERGIES as ALLERGENS, type Allergy as Allergen } from '../../accounts/vocabulary.ts';
export { ALLERGENS, type Allergen };

/**
 * Facts about what an ingredient is, from which a recipe's dietary fit is derived
 * (vegetarian = no meat/fish/shellfish/gelatin, vegan = additionally no animal_product, ...).
 */
export const DIET_FACTS = [
  'meat', // any land-animal flesh (beef, poultry, lamb, pork, game, stock made from them)
  'pork', // pork and pork products (ham, bacon, lard, gelatin of pork origin)
  'poultry',
  'fish',
  'shellfish',
  'animal_product', // anything from an animal: meat, fish, dairy, eggs, honey, gelatin
  'dairy',
  'egg',
  'gluten', // wheat, barley, rye, spelt and products of them (not certified-GF oats)
  'alcohol',
  'honey',
] as const;
export type DietFact = (typeof DIET_FACTS)[number];

export type DefaultUnit = 'g' | 'ml' | 'piece';

export interface IngredientSeed {
  /** Stable integer id, never reused; it is the public `ingredient_id`. */
  id: number;
  /** Singular, lower-case common name: "chicken breast", "garlic", "olive oil". Unique. */
  name: string;
  /** Plurals, synonyms, British/American names, common label forms. Lower case. */
  aliases: string[];
  category: IngredientCategory;
  default_unit: DefaultUnit;
  /** Per 100 g of the ingredient as used in recipes (raw unless the name says otherwise). */
  kcal: number;
  protein: number;
  carbs: number;
  fat: number;
  fiber: number;
  allergens: Allergen[];
  diet: DietFact[];
  /** Grams per millilitre, where a volume measure makes sense (flour 0.53, milk 1.03, oil 0.92). */
  density?: number;
  /** Grams of one piece, where the ingredient is counted (egg 50, onion 110, garlic clove 5). */
  piece_g?: number;
  /** Other named measures in grams: {"clove": 5, "can": 400, "slice": 30, "bunch": 100, "stick": 113}. */
  measures?: Record<string, number>;
  /** USDA SR Legacy NDB_No (5 digits, as a string) of the closest food, when one exists. */
  usda_ndb?: string;
}
