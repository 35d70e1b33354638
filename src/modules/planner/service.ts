import { invalidField, noMatchingRecipes, conflict } from '../../platform/errors.ts';
import type { LlmProvider } from '../../providers/llm/index.ts';
import type { UserProfile } from '../accounts/service.ts';
import type { LlmUsageService } from '../chat/usage.ts';
import type { MealPlansService, PlanDetail } from '../meal-plans/service.ts';
import { isMonday } from '../meal-plans/week.ts';
import type { PantryAccess } from '../pantry/contract.ts';
import type { RecipeCatalog, Viewer } from '../recipes/contract.ts';
import type { TasteWeights } from './objective.ts';
import { candidateWeeks } from './planner.ts';
import { rerankWeeks } from './rerank.ts';

export interface GenerateInput {
  weekStart: string;
  maxPrepTime?: number | undefined;
  cuisines?: string[] | undefined;
  avoidRepeated: boolean;
  replace: boolean;
}

export interface PlannerDeps {
  profiles: { getProfile(userId: string): Promise<UserProfile> };
  preferences: { get(userId: string): Promise<TasteWeights> };
  recipes: RecipeCatalog;
  pantry: PantryAccess;
  mealPlans: MealPlansService;
  llm: LlmProvider;
  usage: LlmUsageService;
}

/**
 * POST /api/meal-plans/generate (contract §6): the deterministic planner (planner.ts) over every
 * recipe the user may see, optionally reranked by the model among valid weeks, written with
 * MealPlansService.replacePlan (409 unless replace, atomically).
 */
export class PlannerService {
  readonly #deps: PlannerDeps;
  constructor(deps: PlannerDeps) {
    this.#deps = deps;
  }

  async generate(viewer: Viewer, input: GenerateInput): Promise<PlanDetail> {
    if (!isMonday(input.weekStart)) throw invalidField('week_start', 'must be a Monday');
    const { profiles, preferences, recipes, pantry, mealPlans } = this.#deps;
    if (!input.replace && (await mealPlans.getPlanForWeek(viewer.id, input.weekStart))) {
      throw conflict(
        `A meal plan for the week of ${input.weekStart} already exists; set replace to overwrite it.`,
      );
    }
    const cuisines = input.cuisines?.map((c) => c.trim().toLowerCase()).filter(Boolean);
    const [profile, taste, stock, candidates] = await Promise.all([
      profiles.getProfile(viewer.id),
      preferences.get(viewer.id),
      pantry.list(viewer.id),
      recipes.listCandidates(viewer, {
        ...(input.maxPrepTime !== undefined ? { maxTotalTime: input.maxPrepTime } : {}),
        ...(cuisines?.length ? { cuisines } : {}),
      }),
    ]);
    const weeks = candidateWeeks({
      recipes: candidates,
      diet: profile,
      healthGoals: profile.healthGoals,
      constraints: { maxPrepTime: input.maxPrepTime, cuisines, avoidRepeated: input.avoidRepeated },
      taste,
      pantry: stock.map((s) => ({
        ingredientId: s.ingredientId,
        expiresOnDay: s.expiryDate ? daysBetween(input.weekStart, s.expiryDate) : null,
      })),
    });
    if (!weeks[0] || weeks[0].slots.length === 0) {
      throw noMatchingRecipes(
        'No recipe satisfies your allergies, dietary restrictions and plan preferences.',
      );
    }
    const llm = this.#deps.usage.forUser(this.#deps.llm, viewer.id);
    const chosen = weeks[await rerankWeeks(llm, weeks, summarize(profile))]!;
    return mealPlans.replacePlan(
      viewer,
      input.weekStart,
      chosen.slots.map((s) => ({
        day: s.day,
        mealType: s.mealType,
        recipeId: s.recipe.id,
        servings: profile.householdSize,
      })),
      { replace: input.replace },
    );
  }
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

function summarize(p: UserProfile): string {
  const list = (v: string[]) => (v.length ? v.join(', ') : 'none');
  return `User: household of ${p.householdSize}; health goals: ${list(p.healthGoals)}; cooking skill: ${p.cookingSkill}; restrictions: ${list(p.dietaryRestrictions)}; allergies: ${list(p.allergies)}.`;
}
