import type { MealType, RecipeForUse } from '../recipes/contract.ts';
import { slotViolations, type DietFacts, type PlanConstraints } from './constraints.ts';
import {
  healthScore,
  pantryScore,
  tasteScore,
  varietyScore,
  WEIGHTS,
  type PantrySignal,
  type SlotContext,
  type TasteWeights,
} from './objective.ts';

/** Generation fills these three meals on each of the 7 days (contract §6). */
export const PLANNED_MEALS: MealType[] = ['breakfast', 'lunch', 'dinner'];
export const DAYS = 7;

export interface PlannerInput {
  recipes: readonly RecipeForUse[];
  diet: DietFacts;
  healthGoals: readonly string[];
  constraints: PlanConstraints;
  taste: TasteWeights;
  pantry: readonly PantrySignal[];
}

export interface PlannedSlot {
  day: number;
  mealType: MealType;
  recipe: RecipeForUse;
  score: number;
}

export interface PlannedWeek {
  slots: PlannedSlot[];
  /** Sum of slot scores under the documented weights, plus 1 per filled slot (objective.ts). */
  objective: number;
}

type Weights = { taste: number; health: number; pantry: number; variety: number };

/**
 * Variants steer the greedy search to different, equally valid weeks (for the optional model
 * rerank); every variant is scored afterwards under the one documented objective.
 */
const VARIANTS: Weights[] = [
  WEIGHTS,
  { taste: 0.15, health: 0.3, pantry: 0.15, variety: 0.4 },
  { taste: 0.2, health: 0.4, pantry: 0.3, variety: 0.1 },
];

/**
 * Deterministic planner: a greedy pass over the 21 slots, day by day, choosing for each slot the
 * allowed recipe with the best score given what is already planned (ties: lowest recipe id). Only
 * recipes with no slotViolations are ever considered, so no output can break a hard constraint;
 * a slot without any allowed recipe stays empty.
 */
export function planWeek(input: PlannerInput, weights: Weights = WEIGHTS): PlannedWeek {
  const allowed = allowedByMeal(input);
  const pantry = new Map(input.pantry.map((p) => [p.ingredientId, p]));
  const recipeUses = new Map<string, number>();
  const pantryUses = new Map<number, number>();
  const cuisineAt = new Map<string, string>();
  const slots: PlannedSlot[] = [];
  let objective = 0;
  for (let day = 0; day < DAYS; day++) {
    for (const mealType of PLANNED_MEALS) {
      const ctx: SlotContext = {
        day,
        mealType,
        dayCuisines: PLANNED_MEALS.map((m) => cuisineAt.get(`${day}:${m}`)).filter((c): c is string =>
          Boolean(c),
        ),
        previousSameMeal: cuisineAt.get(`${day - 1}:${mealType}`),
        recipeUses,
        pantryUses,
      };
      let best: { recipe: RecipeForUse; steer: number; score: number } | undefined;
      for (const candidate of allowed.get(mealType)!) {
        if (input.constraints.avoidRepeated && recipeUses.has(candidate.recipe.id)) continue;
        const terms = {
          taste: candidate.taste,
          health: candidate.health.get(mealType)!,
          // Without stock every recipe scores 0: skip the per-candidate work.
          pantry: pantry.size ? pantryScore(candidate.recipe, day, pantry, pantryUses) : 0,
          variety: varietyScore(candidate.recipe, ctx),
        };
        const steer = combine(terms, weights);
        if (
          !best ||
          steer > best.steer + 1e-12 ||
          (Math.abs(steer - best.steer) <= 1e-12 && candidate.recipe.id < best.recipe.id)
        ) {
          best = { recipe: candidate.recipe, steer, score: combine(terms, WEIGHTS) };
        }
      }
      if (!best) continue;
      slots.push({ day, mealType, recipe: best.recipe, score: round(best.score) });
      objective += best.score + 1;
      recipeUses.set(best.recipe.id, (recipeUses.get(best.recipe.id) ?? 0) + 1);
      for (const id of new Set(best.recipe.ingredients.map((i) => i.ingredientId))) {
        if (pantry.has(id)) pantryUses.set(id, (pantryUses.get(id) ?? 0) + 1);
      }
      cuisineAt.set(`${day}:${mealType}`, best.recipe.cuisine.toLowerCase());
    }
  }
  return { slots, objective: round(objective) };
}

/** Distinct valid weeks, best objective first (the first is what the planner alone returns). */
export function candidateWeeks(input: PlannerInput): PlannedWeek[] {
  const seen = new Set<string>();
  const weeks: PlannedWeek[] = [];
  for (const weights of VARIANTS) {
    const week = planWeek(input, weights);
    const key = week.slots.map((s) => `${s.day}${s.mealType}${s.recipe.id}`).join('|');
    if (seen.has(key)) continue;
    seen.add(key);
    weeks.push(week);
  }
  return weeks.sort((a, b) => b.objective - a.objective);
}

interface Candidate {
  recipe: RecipeForUse;
  taste: number;
  health: Map<MealType, number>;
}

function allowedByMeal(input: PlannerInput): Map<MealType, Candidate[]> {
  const scored = new Map<string, Candidate>();
  const out = new Map<MealType, Candidate[]>(PLANNED_MEALS.map((m) => [m, []]));
  const ordered = [...input.recipes].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const recipe of ordered) {
    for (const mealType of PLANNED_MEALS) {
      if (slotViolations(recipe, mealType, input.diet, input.constraints).length) continue;
      let candidate = scored.get(recipe.id);
      if (!candidate) {
        candidate = { recipe, taste: tasteScore(recipe, input.taste), health: new Map() };
        scored.set(recipe.id, candidate);
      }
      candidate.health.set(mealType, healthScore(recipe, mealType, input.healthGoals));
      out.get(mealType)!.push(candidate);
    }
  }
  return out;
}

function combine(t: { taste: number; health: number; pantry: number; variety: number }, w: Weights): number {
  return w.taste * t.taste + w.health * t.health + w.pantry * t.pantry + w.variety * t.variety;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
