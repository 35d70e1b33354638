import { noMatchingRecipes } from '../../platform/errors.ts';
import { generateObject, type LlmProvider } from '../../providers/llm/index.ts';
import type { UserProfile } from '../accounts/service.ts';
import type { LlmUsageService } from '../chat/usage.ts';
import type { IngredientCatalog, IngredientInfo } from '../ingredients/contract.ts';
import { toGrams } from '../ingredients/units.ts';
import type { PantryAccess } from '../pantry/contract.ts';
import {
  EARLY_STOP,
  evaluateDraft,
  overallScore,
  round2,
  type DraftLine,
  type Evaluation,
  type ResolvedLine,
  type UserContext,
} from './evaluate.ts';
import { guessIngredient, withKeywordFacts } from './keywords.ts';
import {
  firstPrompt,
  JUDGE_SYSTEM,
  judgePrompt,
  RECIPE_SYSTEM,
  refinePrompt,
  type RequestFacts,
} from './prompts.ts';
import { Judgement, ModelDraft, MODEL_DRAFT_JSON_SCHEMA, type RecipeDraft } from './schemas.ts';

/** At most this many generate → score → refine passes (spec Limits). */
export const MAX_PASSES = 3;

export interface GenerateRecipeInput {
  prompt: string;
  usePantry: boolean;
  cuisineHint: string | null;
  maxMinutes: number | null;
}

export interface AiRecipeDeps {
  profiles: { getProfile(userId: string): Promise<UserProfile> };
  preferences: { get(userId: string): Promise<UserContext['weights']> };
  pantry: PantryAccess;
  /** parseLine, when offered, finds a reference ingredient inside a longer name ("fresh basil leaves"). */
  ingredients: IngredientCatalog & {
    parseLine?(text: string): Promise<{ ingredient: IngredientInfo | undefined }>;
  };
  llm: LlmProvider;
  usage: LlmUsageService;
}

interface Scored {
  draft: ModelDraft;
  lines: ResolvedLine[];
  evaluation: Evaluation;
  palatability: number;
  palatabilityReason: string;
  overall: number;
}

/**
 * POST /api/recipes/generate: generate → score → refine, at most 3 passes, best returned.
 * Scores are the server's (evaluate.ts) except palatability, a second structured model call. A
 * draft breaking an allergy, restriction or max_minutes is never returned; if no pass produced a
 * clean draft the answer is 422 no_matching_recipes. When a later pass fails upstream (502/504)
 * after a clean draft exists, that draft is returned with the passes actually completed.
 */
export class AiRecipesService {
  readonly #deps: AiRecipeDeps;
  constructor(deps: AiRecipeDeps) {
    this.#deps = deps;
  }

  async generate(userId: string, input: GenerateRecipeInput): Promise<RecipeDraft> {
    const { llm: base, usage, profiles, preferences, pantry } = this.#deps;
    base.assertConfigured('recipe');
    const llm = usage.forUser(base, userId, 'recipe');
    const [profile, weights, stock] = await Promise.all([
      profiles.getProfile(userId),
      preferences.get(userId),
      input.usePantry ? pantry.list(userId) : Promise.resolve([]),
    ]);
    const user: UserContext = {
      allergies: profile.allergies,
      dietaryRestrictions: profile.dietaryRestrictions,
      healthGoals: profile.healthGoals,
      cookingSkill: profile.cookingSkill,
      weights,
      cuisineHint: input.cuisineHint?.trim() || null,
      maxMinutes: input.maxMinutes,
      usePantry: input.usePantry,
      pantry: stock,
    };
    const request: RequestFacts = { prompt: input.prompt.trim(), householdSize: profile.householdSize };

    let best: Scored | undefined;
    let previous: Scored | undefined;
    let passes = 0;
    for (let pass = 1; pass <= MAX_PASSES; pass++) {
      let scored: Scored;
      try {
        scored = await this.#pass(llm, request, user, previous);
      } catch (error) {
        if (best?.evaluation.clean) break;
        throw error;
      }
      passes = pass;
      if (isBetter(scored, best)) best = scored;
      if (scored.evaluation.clean && scored.overall >= EARLY_STOP) break;
      previous = scored;
    }
    if (!best?.evaluation.clean) {
      throw noMatchingRecipes(
        `No draft in ${passes} passes respected your allergies, dietary restrictions${input.maxMinutes ? ' and time limit' : ''}.`,
      );
    }
    return present(best, passes);
  }

  async #pass(
    llm: LlmProvider,
    request: RequestFacts,
    user: UserContext,
    previous: Scored | undefined,
  ): Promise<Scored> {
    const { object: draft } = await generateObject(llm, {
      purpose: 'recipe',
      schema: ModelDraft,
      jsonSchema: MODEL_DRAFT_JSON_SCHEMA,
      system: RECIPE_SYSTEM,
      prompt: previous ? refinePrompt(request, user, previous) : firstPrompt(request, user),
      temperature: 0.7,
    });
    const lines = await this.#resolve(draft.ingredients);
    const evaluation = evaluateDraft(
      {
        cuisine: draft.cuisine,
        difficulty: normalizeDifficulty(draft.difficulty),
        prepMinutes: draft.prep_minutes,
        cookMinutes: draft.cook_minutes,
        servings: draft.servings,
      },
      lines,
      user,
    );
    // An unclean draft is refined, never returned: the critic's opinion of it is not needed.
    if (!evaluation.clean)
      return { draft, lines, evaluation, palatability: 0, palatabilityReason: '', overall: 0 };
    const { object: judged } = await generateObject(llm, {
      purpose: 'recipe',
      schema: Judgement,
      system: JUDGE_SYSTEM,
      prompt: judgePrompt(draft),
      temperature: 0,
    });
    const palatability = round2(judged.palatability / 10);
    return {
      draft,
      lines,
      evaluation,
      palatability,
      palatabilityReason: judged.reason.slice(0, 300),
      overall: overallScore(palatability, evaluation),
    };
  }

  /** Reference data by exact name or alias; else a reference found inside the name (plus its keyword facts); else keywords. */
  async #resolve(lines: readonly DraftLine[]): Promise<ResolvedLine[]> {
    const { ingredients } = this.#deps;
    return Promise.all(
      lines.map(async (line) => {
        const unit = line.unit.trim() || 'piece';
        let info = await ingredients.resolveName(line.name);
        if (!info && ingredients.parseLine) {
          const found = (await ingredients.parseLine(line.name)).ingredient;
          if (found) info = withKeywordFacts(found, line.name);
        }
        if (!info) return { line, info: guessIngredient(line.name), grams: undefined };
        return { line, info, grams: toGrams(line.quantity, unit, info) };
      }),
    );
  }
}

function isBetter(candidate: Scored, best: Scored | undefined): boolean {
  if (!best) return true;
  if (candidate.evaluation.clean !== best.evaluation.clean) return candidate.evaluation.clean;
  return candidate.overall > best.overall;
}

function normalizeDifficulty(value: string): 'easy' | 'medium' | 'hard' {
  const v = value.toLowerCase();
  if (v.includes('easy') || v.includes('simple') || v.includes('beginner')) return 'easy';
  if (v.includes('hard') || v.includes('difficult') || v.includes('advanced')) return 'hard';
  return 'medium';
}

function present(best: Scored, passes: number): RecipeDraft {
  const { draft, evaluation } = best;
  return {
    name: draft.name,
    description: draft.description,
    cuisine: draft.cuisine,
    difficulty: normalizeDifficulty(draft.difficulty),
    prep_minutes: draft.prep_minutes,
    cook_minutes: draft.cook_minutes,
    servings: draft.servings,
    ingredients: best.lines.map((l) => ({
      name: l.line.name,
      quantity: l.line.quantity,
      unit: l.line.unit,
      is_pantry_item: l.info.id > 0 && evaluation.pantryIds.has(l.info.id),
    })),
    steps: draft.steps,
    macros_per_serving: evaluation.macros,
    tags: [...new Set(draft.tags.map((t) => t.toLowerCase()).filter(Boolean))],
    score: {
      overall: best.overall,
      palatability: best.palatability,
      nutrition_balance: evaluation.nutritionBalance,
      preference_match: evaluation.preferenceMatch,
      palatability_reason: best.palatabilityReason,
      iterations: passes,
    },
  };
}
