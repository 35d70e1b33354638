import type { IngredientInfo } from './contract.ts';

/**
 * The hard constraints used wherever food is chosen for a user (pure). A recipe's allergens and
 * the dietary restrictions it fits are derived from its ingredients; a user's allergies and
 * restrictions are checked against them. When in doubt, a recipe is NOT safe: unknown nut kinds
 * count as both peanuts and tree nuts, wheat counts as gluten, an unknown restriction never fits.
 */

// The contract's vocabularies (§3) are defined once, with the profile that uses them.
import { DIETARY_RESTRICTIONS, type DietaryRestriction } from '../accounts/vocabulary.ts';
export { DIETARY_RESTRICTIONS, type DietaryRestriction };

/** Carbohydrate ceilings per serving, in grams. */
export const KETO_MAX_CARBS = 20;
export const LOW_CARB_MAX_CARBS = 40;

/** Allergen tags a user's allergy excludes. Any allergy not listed excludes its own tag. */
const ALLERGY_EXCLUDES: Readonly<Record<string, readonly string[]>> = {
  nuts: ['nuts', 'peanuts', 'tree_nuts'],
  gluten: ['gluten', 'wheat'],
  wheat: ['wheat'],
};

export function allergensExcludedBy(allergy: string): readonly string[] {
  return ALLERGY_EXCLUDES[allergy] ?? [allergy];
}

export interface DietProfile {
  allergens: string[];
  fits: string[];
}

/** Allergen tags with what they imply: wheat contains gluten; "nuts" of no stated kind may be either kind. */
function expandAllergens(tags: Iterable<string>, dietFacts: ReadonlySet<string>): Set<string> {
  const out = new Set(tags);
  if (out.has('wheat') || dietFacts.has('gluten')) out.add('gluten');
  if (out.has('nuts') && !out.has('peanuts') && !out.has('tree_nuts')) {
    out.add('peanuts');
    out.add('tree_nuts');
  }
  if (out.has('peanuts') || out.has('tree_nuts')) out.add('nuts');
  return out;
}

/** Diet facts with what they imply, also read from allergen tags (a fish allergen means fish). */
function expandFacts(facts: Iterable<string>, allergens: ReadonlySet<string>): Set<string> {
  const out = new Set(facts);
  if (allergens.has('fish')) out.add('fish');
  if (allergens.has('shellfish')) out.add('shellfish');
  if (allergens.has('dairy')) out.add('dairy');
  if (allergens.has('eggs')) out.add('egg');
  if (allergens.has('gluten') || allergens.has('wheat')) out.add('gluten');
  if (out.has('pork') || out.has('poultry')) out.add('meat');
  for (const animal of ['meat', 'fish', 'shellfish', 'dairy', 'egg', 'honey']) {
    if (out.has(animal)) out.add('animal_product');
  }
  return out;
}

/** Allergens (union over the ingredients) and the dietary restrictions the recipe satisfies. */
export function recipeDietProfile(
  ingredients: readonly IngredientInfo[],
  carbsPerServing: number,
): DietProfile {
  const allergens = new Set<string>();
  const facts = new Set<string>();
  for (const ingredient of ingredients) {
    const own = expandAllergens(ingredient.allergens, new Set(ingredient.diet));
    for (const tag of own) allergens.add(tag);
    for (const fact of expandFacts(ingredient.diet, own)) facts.add(fact);
  }
  const has = (fact: string) => facts.has(fact);
  const hasAllergen = (tag: string) => allergens.has(tag);
  const rules: Record<DietaryRestriction, boolean> = {
    vegetarian: !has('meat') && !has('fish') && !has('shellfish'),
    vegan: !has('animal_product'),
    pescatarian: !has('meat'),
    gluten_free: !has('gluten') && !hasAllergen('gluten') && !hasAllergen('wheat'),
    dairy_free: !has('dairy'),
    nut_free: !hasAllergen('nuts') && !hasAllergen('peanuts') && !hasAllergen('tree_nuts'),
    halal: !has('pork') && !has('alcohol'),
    kosher: !has('pork') && !has('shellfish') && !(has('meat') && has('dairy')),
    keto: Number.isFinite(carbsPerServing) && carbsPerServing <= KETO_MAX_CARBS,
    low_carb: Number.isFinite(carbsPerServing) && carbsPerServing <= LOW_CARB_MAX_CARBS,
  };
  return {
    allergens: [...allergens].sort(),
    fits: DIETARY_RESTRICTIONS.filter((r) => rules[r]),
  };
}

/**
 * Why this recipe is unsafe for this user ([] = safe): each allergy whose excluded tags the recipe
 * carries, and each restriction the recipe does not fit.
 */
export function violatesProfile(
  recipe: { allergens: readonly string[]; fits: readonly string[] },
  user: { allergies: readonly string[]; dietaryRestrictions: readonly string[] },
): string[] {
  const carried = expandAllergens(recipe.allergens, new Set());
  const reasons: string[] = [];
  for (const allergy of user.allergies) {
    const found = allergensExcludedBy(allergy).filter((tag) => carried.has(tag));
    if (found.length > 0) reasons.push(`contains ${found.join(', ')} (${allergy} allergy)`);
  }
  for (const restriction of user.dietaryRestrictions) {
    if (!recipe.fits.includes(restriction)) reasons.push(`not ${restriction}`);
  }
  return reasons;
}
