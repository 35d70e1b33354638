import { invalidField, noMatchingRecipes, conflict } from '../../platform/errors.ts';
import type { LlmProvider } from '../../providers/llm/index.ts';
import type { UserProfile } from '../accounts/service.ts';
import type { LlmUsageService } from '../chat/usage.ts';
import type { MealPlansService, PlanDetail } from '../meal-plans/service.ts';
import { isMonday } from '../meal-plans/week.ts';
import type { PantryAccess } from '../pantry/contract.ts';
import { allergensExcludedBy } from '../ingredients/diet.ts';
import type { RecipeCatalog, RecipeForUse, Viewer } from '../recipes/contract.ts';
import type { TasteWeights } from './objective.ts';
import { candidateWeeks, DAYS, PLANNED_MEALS } from './planner.ts';
import { rerankWeeks } from './rerank.ts';

export interface GenerateInput {
  weekStart: string;
  maxPrepTime?: number | undefined;
  cuisines?: string[] | undefined;
  avoidRepeated: boolean;
  replace: boolean;
}

/**
 * The planner scores a bounded pool, not the catalog: per meal type a few hundred recipes that
 * already pass every hard constraint in SQL, plus smaller draws of the user's own recipes, liked
 * cuisines and expiring pantry stock. Far more than the 21 slots need, so whenever the catalog
 * could fill a slot the pool can too (it holds every candidate when fewer exist).
 */
export const POOL_PER_MEAL_TYPE = 200;
export const POOL_PER_SOURCE = 50;
/** Liked cuisines drawn on their own: the top few above neutral. */
const FAVOURED_CUISINES = 3;

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
 * POST /api/meal-plans/generate (contract §6): the deterministic planner (planner.ts) over a pool
 * of the recipes the user may see (POOL_PER_MEAL_TYPE; the same pool for one user and week),
 * optionally reranked by the model among valid weeks, written with MealPlansService.replacePlan
 * (409 unless replace, atomically).
 */
export class PlannerService {
  readonly #deps: PlannerDeps;
  constructor(deps: PlannerDeps) {
    this.#deps = deps;
  }

  async generate(viewer: Viewer, input: GenerateInput): Promise<PlanDetail> {
    if (!isMonday(input.weekStart)) throw invalidField('week_start', 'must be a Monday');
    const { profiles, preferences, pantry, mealPlans } = this.#deps;
    if (!input.replace && (await mealPlans.getPlanForWeek(viewer.id, input.weekStart))) {
      throw conflict(
        `A meal plan for the week of ${input.weekStart} already exists; set replace to overwrite it.`,
      );
    }
    const cuisines = input.cuisines?.map((c) => c.trim().toLowerCase()).filter(Boolean);
    const [profile, taste, stock] = await Promise.all([
      profiles.getProfile(viewer.id),
      preferences.get(viewer.id),
      pantry.list(viewer.id),
    ]);
    const pantrySignals = stock.map((s) => ({
      ingredientId: s.ingredientId,
      expiresOnDay: s.expiryDate ? daysBetween(input.weekStart, s.expiryDate) : null,
    }));
    const candidates = await this.#pool(viewer, input, { profile, taste, cuisines, pantrySignals });
    const weeks = candidateWeeks({
      recipes: candidates,
      diet: profile,
      healthGoals: profile.healthGoals,
      constraints: { maxPrepTime: input.maxPrepTime, cuisines, avoidRepeated: input.avoidRepeated },
      taste,
      pantry: pantrySignals,
    });
    if (!weeks[0] || weeks[0].slots.length === 0) {
      throw noMatchingRecipes(
        'No recipe satisfies your allergies, dietary restrictions and plan preferences.',
      );
    }
    const llm = this.#deps.usage.forUser(this.#deps.llm, viewer.id, 'plan');
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

  /**
   * Every hard constraint the catalog query can check goes into it (the planner checks them all
   * again, so a missed one costs only pool space, never safety).
   */
  #pool(
    viewer: Viewer,
    input: GenerateInput,
    user: {
      profile: UserProfile;
      taste: TasteWeights;
      cuisines: string[] | undefined;
      pantrySignals: { ingredientId: number; expiresOnDay: number | null }[];
    },
  ): Promise<RecipeForUse[]> {
    const { profile, taste, cuisines, pantrySignals } = user;
    const expiring = pantrySignals
      .filter((p) => p.expiresOnDay !== null && p.expiresOnDay >= 0 && p.expiresOnDay < DAYS)
      .map((p) => p.ingredientId);
    return this.#deps.recipes.listCandidatePool(
      viewer,
      {
        ...(input.maxPrepTime !== undefined ? { maxTotalTime: input.maxPrepTime } : {}),
        ...(cuisines?.length ? { cuisines } : {}),
        fits: profile.dietaryRestrictions,
        withoutAllergens: [...new Set(profile.allergies.flatMap((a) => allergensExcludedBy(a)))],
      },
      {
        mealTypes: PLANNED_MEALS,
        perMealType: POOL_PER_MEAL_TYPE,
        perSource: POOL_PER_SOURCE,
        // One user's plan for one week is reproducible; other weeks rotate through the catalog.
        seed: `${viewer.id}:${input.weekStart}`,
        favourCuisines: favouredCuisines(taste),
        usingIngredients: [...new Set(expiring)],
      },
    );
  }
}

/** The user's best-liked cuisines (weight above neutral), most liked first. */
function favouredCuisines(taste: TasteWeights): string[] {
  return Object.entries(taste.cuisine_weights)
    .filter(([, weight]) => weight > 0.5)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, FAVOURED_CUISINES)
    .map(([cuisine]) => cuisine.toLowerCase());
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

function summarize(p: UserProfile): string {
  const list = (v: string[]) => (v.length ? v.join(', ') : 'none');
  return `User: household of ${p.householdSize}; health goals: ${list(p.healthGoals)}; cooking skill: ${p.cookingSkill}; restrictions: ${list(p.dietaryRestrictions)}; allergies: ${list(p.allergies)}.`;
}
