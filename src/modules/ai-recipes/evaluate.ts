import type { IngredientInfo } from '../ingredients/contract.ts';
import {
  KETO_MAX_CARBS,
  LOW_CARB_MAX_CARBS,
  recipeDietProfile,
  violatesProfile,
} from '../ingredients/diet.ts';
import type { PantryStockItem } from '../pantry/contract.ts';

/**
 * Scoring of one recipe draft, everything in [0, 1] and computed by the server, not taken from
 * the model (only palatability is the model's judgement, asked separately):
 *
 *   overall = 0.4 · palatability + 0.3 · nutrition_balance + 0.3 · preference_match
 *
 * A draft is *clean* when it breaks no allergy or dietary restriction (ingredients/diet.ts over the
 * reference ingredients, plus keyword facts for names the table does not know) and, when
 * max_minutes is set, prep + cook ≤ max_minutes. An unclean draft scores overall 0 and preference
 * 0 and is never returned while a clean one exists. The loop stops early at a clean draft with
 * overall ≥ EARLY_STOP.
 */
export const EARLY_STOP = 0.8;
export const SCORE_WEIGHTS = { palatability: 0.4, nutrition: 0.3, preference: 0.3 } as const;

export interface DraftLine {
  name: string;
  quantity: number;
  unit: string;
}

export interface ResolvedLine {
  line: DraftLine;
  /** Reference data (id > 0) or a keyword guess (id −1, no nutrition). */
  info: IngredientInfo;
  /** Grams of the whole line, when the unit converts. */
  grams: number | undefined;
}

export interface Macros {
  calories: number;
  protein_g: number;
  carbs_g: number;
  fat_g: number;
  fiber_g: number;
}

export interface UserContext {
  allergies: string[];
  dietaryRestrictions: string[];
  healthGoals: string[];
  cookingSkill: string;
  weights: {
    cuisine_weights: Record<string, number>;
    difficulty_weights: Record<string, number>;
    ingredient_weights: Record<string, number>;
  };
  cuisineHint: string | null;
  maxMinutes: number | null;
  usePantry: boolean;
  pantry: PantryStockItem[];
}

export interface DraftFacts {
  cuisine: string;
  difficulty: string;
  prepMinutes: number;
  cookMinutes: number;
  servings: number;
}

export interface Evaluation {
  macros: Macros;
  /** Share of ingredient lines whose grams (and so nutrition) are known. */
  coverage: number;
  violations: string[];
  overTime: boolean;
  clean: boolean;
  nutritionBalance: number;
  preferenceMatch: number;
  /** Ingredient ids found in the pantry (use_pantry only). */
  pantryIds: Set<number>;
  /** Names neither the reference table nor its aliases know. */
  unresolved: string[];
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const round1 = (x: number) => Math.round(x * 10) / 10;
export const round2 = (x: number) => Math.round(x * 100) / 100;

export function macrosPerServing(
  lines: readonly ResolvedLine[],
  servings: number,
): { macros: Macros; coverage: number } {
  const total = { kcal: 0, protein: 0, carbs: 0, fat: 0, fiber: 0 };
  let known = 0;
  for (const { info, grams } of lines) {
    if (info.id < 0 || grams === undefined) continue;
    known += 1;
    for (const key of Object.keys(total) as (keyof typeof total)[])
      total[key] += (info.nutrition[key] * grams) / 100;
  }
  const n = Math.max(1, servings);
  return {
    macros: {
      calories: Math.round(total.kcal / n),
      protein_g: round1(total.protein / n),
      carbs_g: round1(total.carbs / n),
      fat_g: round1(total.fat / n),
      fiber_g: round1(total.fiber / n),
    },
    coverage: lines.length ? known / lines.length : 0,
  };
}

/** 1 inside [low, high], falling linearly to 0 at `slack` outside. */
const band = (x: number, low: number, high: number, slack: number) =>
  x < low ? clamp01(1 - (low - x) / slack) : x > high ? clamp01(1 - (x - high) / slack) : 1;

/**
 * nutrition_balance: the mean of five terms over one serving — energy from protein 15–35 %, fat
 * 20–35 %, carbohydrate 40–60 % (for keto / low_carb users: carbs under 20 g / 40 g instead),
 * fibre ≥ 7 g per 500 kcal, and calories 250–900 (weight_loss: 250–650) — times the confidence
 * min(1, coverage / 0.75): a draft whose ingredients mostly did not resolve cannot score well.
 */
export function nutritionBalance(
  m: Macros,
  coverage: number,
  user: Pick<UserContext, 'dietaryRestrictions' | 'healthGoals'>,
): number {
  const energy = Math.max(1, m.protein_g * 4 + m.carbs_g * 4 + m.fat_g * 9);
  const carbLimit = user.dietaryRestrictions.includes('keto')
    ? KETO_MAX_CARBS
    : user.dietaryRestrictions.includes('low_carb')
      ? LOW_CARB_MAX_CARBS
      : undefined;
  const terms = [
    band((m.protein_g * 4) / energy, 0.15, 0.35, 0.15),
    band((m.fat_g * 9) / energy, 0.2, 0.35, 0.2),
    carbLimit === undefined ? band((m.carbs_g * 4) / energy, 0.4, 0.6, 0.3) : m.carbs_g <= carbLimit ? 1 : 0,
    clamp01(m.fiber_g / (7 * Math.max(0.2, m.calories / 500))),
    band(m.calories, 250, user.healthGoals.includes('weight_loss') ? 650 : 900, 400),
  ];
  return clamp01((terms.reduce((a, b) => a + b, 0) / terms.length) * Math.min(1, coverage / 0.75));
}

/**
 * preference_match (clean drafts; 0 otherwise): weighted mean of
 *   cuisine 0.3 — the user's cuisine weight (neutral 0.5), or 1 / 0.2 for matching / missing cuisine_hint;
 *   difficulty 0.2 — the difficulty weight, capped at 0.3 for a "hard" dish and a beginner;
 *   ingredients 0.25 — mean weight of the resolved ingredients that have one (else 0.5);
 *   pantry 0.25 (use_pantry only) — share of lines from the pantry, expiring ones counting double.
 */
export function preferenceMatch(
  facts: DraftFacts,
  lines: readonly ResolvedLine[],
  pantryIds: Set<number>,
  user: UserContext,
): number {
  const parts: [number, number][] = [];
  const cuisine = facts.cuisine.toLowerCase();
  const hint = user.cuisineHint?.trim().toLowerCase();
  parts.push([
    0.3,
    hint
      ? cuisine.includes(hint) || hint.includes(cuisine)
        ? 1
        : 0.2
      : (user.weights.cuisine_weights[cuisine] ?? 0.5),
  ]);
  let difficulty = user.weights.difficulty_weights[facts.difficulty] ?? 0.5;
  if (facts.difficulty === 'hard' && user.cookingSkill === 'beginner') difficulty = Math.min(difficulty, 0.3);
  parts.push([0.2, difficulty]);
  const known = lines
    .map((l) => user.weights.ingredient_weights[l.info.name.toLowerCase()])
    .filter((w): w is number => w !== undefined);
  parts.push([0.25, known.length ? known.reduce((a, b) => a + b, 0) / known.length : 0.5]);
  if (user.usePantry) {
    const expiring = new Set(user.pantry.filter((p) => p.isExpiringSoon).map((p) => p.ingredientId));
    const points = [...pantryIds].reduce((sum, id) => sum + (expiring.has(id) ? 2 : 1), 0);
    parts.push([0.25, clamp01(points / Math.max(2, Math.min(lines.length, 6)))]);
  }
  const weight = parts.reduce((a, [w]) => a + w, 0);
  return clamp01(parts.reduce((a, [w, v]) => a + w * v, 0) / weight);
}

export function evaluateDraft(
  facts: DraftFacts,
  lines: readonly ResolvedLine[],
  user: UserContext,
): Evaluation {
  const { macros, coverage } = macrosPerServing(lines, facts.servings);
  // Carbs are only trusted for keto / low_carb when every ingredient is known and most convert.
  const carbsKnown = lines.every((l) => l.info.id > 0) && coverage >= 0.75;
  const diet = recipeDietProfile(
    lines.map((l) => l.info),
    carbsKnown ? macros.carbs_g : Number.POSITIVE_INFINITY,
  );
  const violations = violatesProfile(diet, user);
  const overTime = user.maxMinutes !== null && facts.prepMinutes + facts.cookMinutes > user.maxMinutes;
  const clean = violations.length === 0 && !overTime;
  const stocked = new Set(user.pantry.map((p) => p.ingredientId));
  const pantryIds = new Set(
    user.usePantry ? lines.map((l) => l.info.id).filter((id) => id > 0 && stocked.has(id)) : [],
  );
  return {
    macros,
    coverage,
    violations,
    overTime,
    clean,
    nutritionBalance: round2(nutritionBalance(macros, coverage, user)),
    preferenceMatch: clean ? round2(preferenceMatch(facts, lines, pantryIds, user)) : 0,
    pantryIds,
    unresolved: lines.filter((l) => l.info.id < 0).map((l) => l.line.name),
  };
}

export function overallScore(
  palatability: number,
  e: Pick<Evaluation, 'clean' | 'nutritionBalance' | 'preferenceMatch'>,
): number {
  if (!e.clean) return 0;
  return round2(
    SCORE_WEIGHTS.palatability * palatability +
      SCORE_WEIGHTS.nutrition * e.nutritionBalance +
      SCORE_WEIGHTS.preference * e.preferenceMatch,
  );
}
