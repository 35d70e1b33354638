import { violatesProfile } from '../ingredients/diet.ts';
import type { MealType, RecipeForUse } from '../recipes/contract.ts';

/** The user facts that are hard constraints wherever food is chosen (contract §3). */
export interface DietFacts {
  allergies: string[];
  dietaryRestrictions: string[];
}

/** The request's hard constraints (contract §6). */
export interface PlanConstraints {
  /** prep + cook ≤ this, minutes. */
  maxPrepTime?: number | undefined;
  /** Lower-case cuisine names; empty or absent = any. */
  cuisines?: string[] | undefined;
  /** No recipe twice in the week. */
  avoidRepeated: boolean;
}

/**
 * Every reason a recipe may not go into a slot: allergies and restrictions (ingredients/diet.ts),
 * total time, cuisine and meal type. An empty list means allowed. The planner checks this itself,
 * whatever the candidate query already filtered.
 */
export function slotViolations(
  recipe: RecipeForUse,
  mealType: MealType,
  diet: DietFacts,
  constraints: PlanConstraints,
): string[] {
  const reasons = [...violatesProfile(recipe, diet)];
  if (constraints.maxPrepTime !== undefined && recipe.prepTime + recipe.cookTime > constraints.maxPrepTime) {
    reasons.push(`takes ${recipe.prepTime + recipe.cookTime} min, over ${constraints.maxPrepTime}`);
  }
  if (constraints.cuisines?.length && !constraints.cuisines.includes(recipe.cuisine.toLowerCase())) {
    reasons.push(`cuisine ${recipe.cuisine} not requested`);
  }
  if (!recipe.mealTypes.includes(mealType)) reasons.push(`not a ${mealType} dish`);
  return reasons;
}
