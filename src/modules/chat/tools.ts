import { z } from 'zod';
import { AppError } from '../../platform/errors.ts';
import { isUuid } from '../../platform/http/ids.ts';
import type { LlmToolSpec } from '../../providers/llm/index.ts';
import type { UserProfile } from '../accounts/service.ts';
import { violatesProfile } from '../ingredients/diet.ts';
import type { MealType, RecipeForUse, Viewer } from '../recipes/contract.ts';
import {
  asksToChangePlan,
  asksToClearPlan,
  asksToMarkDone,
  asksToRemoveFromPantry,
  dayName,
  daysNamed,
  namesPantryItem,
  parseDayOfWeek,
} from './intent.ts';
import type { AssistantDeps, PlanView } from './ports.ts';

/**
 * The assistant's nine tools (spec, AI chat). Each acts as the caller, through the same services
 * as the HTTP routes: another user's item is simply "not found". Suggestions are filtered by the
 * user's allergies and dietary restrictions (hard constraints, contract §3).
 */
export interface ToolContext {
  viewer: Viewer;
  profile: UserProfile;
  /** The user's own message of this exchange (destructive tools check it). */
  userMessage: string;
  weekStart: string;
  /** Today, 0 = Monday (for "tonight", "tomorrow" in the user's words). */
  today: number;
  /** Plan changes made in this exchange (one is allowed when the user named no day). */
  planChanges: number;
}

export interface ToolOutcome {
  /** The handler ran (its name goes into actions_taken). */
  executed: boolean;
  output: unknown;
}

const MEAL_TYPES = ['breakfast', 'lunch', 'dinner', 'snack'] as const;
const LOCATIONS = ['fridge', 'freezer', 'pantry', 'other'] as const;

const day = z
  .unknown()
  .transform((v, ctx) => {
    const parsed = parseDayOfWeek(v);
    if (parsed === undefined) {
      ctx.addIssue({ code: 'custom', message: 'must be 0 (Monday) … 6 (Sunday) or a day name' });
      return z.NEVER;
    }
    return parsed;
  })
  .meta({ description: '0 = Monday … 6 = Sunday (a day name also works)' });
const mealType = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(MEAL_TYPES));
const optionalText = z.string().trim().max(200).nullish();
const optionalInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max).nullish();

interface Tool<S extends z.ZodType> {
  name: string;
  description: string;
  args: S;
  /** JSON Schema shown to the model (the zod schema is what is enforced). */
  parameters: Record<string, unknown>;
  run(args: z.infer<S>, ctx: ToolContext, deps: AssistantDeps): Promise<unknown>;
}

const tool = <S extends z.ZodType>(t: Tool<S>): Tool<S> => t;
const objectSchema = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const dayParam = { type: ['integer', 'string'], description: '0 = Monday … 6 = Sunday, or the day name' };
const mealParam = { type: 'string', enum: [...MEAL_TYPES] };

/**
 * Which week a plan tool acts on: the current one (default) or the next, so that "Thursday" said on
 * a Sunday can mean the coming Thursday. The tool signatures of the spec stay valid without it.
 */
const week = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toLowerCase() : (v ?? undefined)),
  z.enum(['current', 'next']).default('current'),
);
const weekParam = {
  type: 'string',
  enum: ['current', 'next'],
  description: 'the current week (default) or the next one',
};

function weekOf(choice: 'current' | 'next', ctx: ToolContext): string {
  if (choice === 'current') return ctx.weekStart;
  const monday = new Date(`${ctx.weekStart}T00:00:00Z`);
  monday.setUTCDate(monday.getUTCDate() + 7);
  return monday.toISOString().slice(0, 10);
}

const searchRecipes = tool({
  name: 'search_recipes',
  description:
    'Search the recipe catalog. Results already exclude recipes that conflict with the user’s allergies and dietary restrictions.',
  args: z.object({
    query: optionalText,
    cuisine: optionalText,
    meal_type: mealType.nullish(),
    max_time_min: optionalInt(1, 1440),
    limit: optionalInt(1, 10),
  }),
  parameters: objectSchema({
    query: { type: 'string', description: 'free text, e.g. "chickpea curry"' },
    cuisine: { type: 'string' },
    meal_type: mealParam,
    max_time_min: { type: 'integer', description: 'prep + cook time limit in minutes' },
    limit: { type: 'integer', minimum: 1, maximum: 10 },
  }),
  async run(args, ctx, deps) {
    const limit = args.limit ?? 5;
    // The user's diets (and the allergies a diet tag expresses) filter inside the search, as
    // GET /api/recipes?dietary= does; every page is then held to the whole profile, and the search
    // pages on until it has enough (a restricted user must not get nothing while fitting recipes exist).
    const dietary = [
      ...new Set([...ctx.profile.dietaryRestrictions, ...ctx.profile.allergies.flatMap(dietFor)]),
    ];
    const safe: RecipeForUse[] = [];
    for (let page = 0; page < SEARCH_PAGES && safe.length < limit; page++) {
      const found = await deps.recipes.search(
        {
          ...(args.query ? { q: args.query } : {}),
          ...(args.cuisine ? { cuisine: args.cuisine.toLowerCase() } : {}),
          ...(args.meal_type ? { mealType: args.meal_type } : {}),
          ...(args.max_time_min ? { maxTime: args.max_time_min } : {}),
          ...(dietary.length > 0 ? { dietary } : {}),
          limit: SEARCH_PAGE_SIZE,
          offset: page * SEARCH_PAGE_SIZE,
        },
        ctx.viewer,
      );
      const full = await deps.recipes.getManyVisible(
        found.items.map((r) => r.id),
        ctx.viewer,
      );
      for (const r of found.items) {
        const recipe = full.get(r.id);
        if (recipe && isSafe(recipe, ctx.profile)) safe.push(recipe);
      }
      if ((page + 1) * SEARCH_PAGE_SIZE >= found.total) break;
    }
    return {
      recipes: safe.slice(0, limit).map((r) => ({
        id: r.id,
        title: r.title,
        cuisine: r.cuisine,
        difficulty: r.difficulty,
        total_minutes: r.prepTime + r.cookTime,
        calories_per_serving: Math.round(r.nutrition.calories),
        meal_types: r.mealTypes,
      })),
    };
  },
});

const getMealPlan = tool({
  name: 'get_meal_plan',
  description:
    'Fetch the user’s meal plan of the current week, or of the next (days 0 = Monday … 6 = Sunday).',
  args: z.object({ week }),
  parameters: objectSchema({ week: weekParam }),
  async run(args, ctx, deps) {
    const weekStart = weekOf(args.week, ctx);
    const plan = await deps.mealPlans.getPlan(ctx.viewer.id, weekStart);
    return plan
      ? presentPlan(plan)
      : { week_start: weekStart, slots: [], note: 'No plan for this week yet.' };
  },
});

const updateMealPlanSlot = tool({
  name: 'update_meal_plan_slot',
  description: 'Put a recipe into one slot of the current (or next) week’s plan, replacing what was there.',
  args: z.object({ day_of_week: day, meal_type: mealType, recipe_id: z.string().trim(), week }),
  parameters: objectSchema(
    { day_of_week: dayParam, meal_type: mealParam, recipe_id: { type: 'string' }, week: weekParam },
    ['day_of_week', 'meal_type', 'recipe_id'],
  ),
  async run(args, ctx, deps) {
    const recipe = await visibleRecipe(args.recipe_id, ctx, deps);
    if (!recipe) return { error: 'Recipe not found.' };
    const reasons = violatesProfile(recipe, ctx.profile);
    if (reasons.length)
      return { error: `Not allowed: the recipe conflicts with the user’s profile (${reasons.join('; ')}).` };
    const slot = await deps.mealPlans.setSlot(ctx.viewer, weekOf(args.week, ctx), {
      day: args.day_of_week,
      mealType: args.meal_type,
      recipeId: recipe.id,
      servings: ctx.profile.householdSize,
    });
    return {
      updated: {
        week_start: weekOf(args.week, ctx),
        day: slot.day,
        day_name: dayName(slot.day),
        meal_type: slot.mealType,
        recipe_title: slot.recipeTitle,
      },
    };
  },
});

const markMealCompleted = tool({
  name: 'mark_meal_completed',
  description: 'Mark a meal of the current (or next) week as cooked.',
  args: z.object({ day_of_week: day, meal_type: mealType, week }),
  parameters: objectSchema({ day_of_week: dayParam, meal_type: mealParam, week: weekParam }, [
    'day_of_week',
    'meal_type',
  ]),
  async run(args, ctx, deps) {
    const done = await deps.mealPlans.markCompleted(
      ctx.viewer.id,
      weekOf(args.week, ctx),
      args.day_of_week,
      args.meal_type,
    );
    return done
      ? {
          completed: {
            day: args.day_of_week,
            day_name: dayName(args.day_of_week),
            meal_type: args.meal_type,
          },
        }
      : { error: 'That slot is not in this week’s plan.' };
  },
});

const getPantry = tool({
  name: 'get_pantry',
  description: 'Read the user’s pantry (soonest expiry first).',
  args: z.object({}),
  parameters: objectSchema({}),
  async run(_args, ctx, deps) {
    return { items: (await deps.pantry.list(ctx.viewer.id)).map(presentPantryItem) };
  },
});

const addToPantry = tool({
  name: 'add_to_pantry',
  description: 'Add an item to the user’s pantry.',
  args: z.object({
    name: z.string().trim().min(1).max(200),
    quantity: z.coerce.number().positive().max(100_000),
    unit: z.string().trim().min(1).max(30),
    storage_location: z
      .string()
      .transform((v) => v.trim().toLowerCase())
      .pipe(z.enum(LOCATIONS))
      .nullish(),
    expiry_date: z.iso.date().nullish(),
  }),
  parameters: objectSchema(
    {
      name: { type: 'string', description: 'ingredient name, e.g. "eggs"' },
      quantity: { type: 'number' },
      unit: { type: 'string', description: 'g, kg, ml, l, piece, tbsp, cup, …' },
      storage_location: { type: 'string', enum: [...LOCATIONS] },
      expiry_date: { type: 'string', description: 'YYYY-MM-DD' },
    },
    ['name', 'quantity', 'unit'],
  ),
  async run(args, ctx, deps) {
    const ingredient = await deps.ingredients.resolveName(args.name);
    if (!ingredient) return { error: `Unknown ingredient "${args.name}".` };
    const item = await deps.pantry.add(ctx.viewer.id, {
      ingredientId: ingredient.id,
      quantity: args.quantity,
      unit: args.unit,
      location: args.storage_location ?? 'pantry',
      expiryDate: args.expiry_date ?? null,
    });
    return { added: presentPantryItem(item) };
  },
});

const removeFromPantry = tool({
  name: 'remove_from_pantry',
  description: 'Remove one pantry item by its id (from get_pantry).',
  args: z.object({ item_id: z.string().trim() }),
  parameters: objectSchema({ item_id: { type: 'string' } }, ['item_id']),
  async run(args, ctx, deps) {
    const item = (await deps.pantry.list(ctx.viewer.id)).find((i) => i.id === args.item_id);
    if (!item) return { error: 'Pantry item not found.' };
    if (!namesPantryItem(ctx.userMessage, item.name))
      throw new ToolRefused(`the user did not name ${item.name}`);
    await deps.pantry.remove(ctx.viewer.id, args.item_id);
    return { removed: args.item_id };
  },
});

const clearMealPlan = tool({
  name: 'clear_meal_plan',
  description:
    'Wipe every slot of the current (or next) week’s plan. Only when the user explicitly asks to clear the plan.',
  args: z.object({ week }),
  parameters: objectSchema({ week: weekParam }),
  async run(args, ctx, deps) {
    const removed = await deps.mealPlans.clearPlan(ctx.viewer.id, weekOf(args.week, ctx));
    return { cleared: true, slots_removed: removed };
  },
});

const getRecipeDetails = tool({
  name: 'get_recipe_details',
  description: 'Load a recipe with ingredients, steps and nutrition per serving.',
  args: z.object({ recipe_id: z.string().trim() }),
  parameters: objectSchema({ recipe_id: { type: 'string' } }, ['recipe_id']),
  async run(args, ctx, deps) {
    const recipe = await visibleRecipe(args.recipe_id, ctx, deps);
    if (!recipe) return { error: 'Recipe not found.' };
    const reasons = violatesProfile(recipe, ctx.profile);
    return {
      ...presentRecipe(recipe),
      ...(reasons.length ? { warning: `Unsuitable for this user: ${reasons.join('; ')}` } : {}),
    };
  },
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const TOOLS: Tool<any>[] = [
  searchRecipes,
  getMealPlan,
  updateMealPlanSlot,
  markMealCompleted,
  getPantry,
  addToPantry,
  removeFromPantry,
  clearMealPlan,
  getRecipeDetails,
];

export const TOOL_SPECS: LlmToolSpec[] = TOOLS.map((t) => ({
  name: t.name,
  description: t.description,
  parameters: t.parameters,
}));

/**
 * Runs one tool call. Bad arguments, unknown tools and refusals come back to the model as an
 * `error` it can read and correct; only a server fault throws.
 */
export async function runTool(
  name: string,
  rawArgs: Record<string, unknown>,
  ctx: ToolContext,
  deps: AssistantDeps,
): Promise<ToolOutcome> {
  const found = TOOLS.find((t) => t.name === name);
  if (!found) return { executed: false, output: { error: `Unknown tool ${name}.` } };
  const intent = INTENT_GATES.get(found);
  if (intent && !intent.asked(ctx.userMessage)) return refused(`${name} ${intent.needs}`);
  const parsed = found.args.safeParse(rawArgs);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i: z.core.$ZodIssue) => `${i.path.join('.') || 'arguments'}: ${i.message}`)
      .join('; ');
    return { executed: false, output: { error: `Invalid arguments: ${issues}` } };
  }
  if (found === updateMealPlanSlot || found === markMealCompleted) {
    const refusal = dayRefusal(parsed.data.day_of_week as number, ctx);
    if (refusal) return refused(refusal);
  }
  try {
    return { executed: true, output: await found.run(parsed.data, ctx, deps) };
  } catch (error) {
    if (error instanceof ToolRefused) return refused(error.message);
    if (error instanceof AppError && error.status < 500)
      return { executed: true, output: { error: error.message } };
    throw error;
  }
}

/**
 * Destructive tools and the words they need from the user in the current message (the model may
 * have been talked into calling them by a recipe text or a tool result).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const INTENT_GATES = new Map<Tool<any>, { asked: (message: string) => boolean; needs: string }>([
  [
    clearMealPlan,
    { asked: asksToClearPlan, needs: 'runs only when the user asks to clear their whole plan' },
  ],
  [
    removeFromPantry,
    { asked: asksToRemoveFromPantry, needs: 'runs only when the user asks to remove pantry items' },
  ],
  [
    updateMealPlanSlot,
    { asked: asksToChangePlan, needs: 'runs only when the user asks to change their plan' },
  ],
  [markMealCompleted, { asked: asksToMarkDone, needs: 'runs only when the user says a meal was cooked' }],
]);

/** A tool found, from the data, that the user's words do not cover what the model asked. */
class ToolRefused extends Error {}

function refused(reason: string): ToolOutcome {
  return {
    executed: false,
    output: { error: `Refused: ${reason}. Ask the user to confirm in their own words.` },
  };
}

/** A plan change must be for a day the user named; naming none allows one change per message. */
function dayRefusal(day: number, ctx: ToolContext): string | undefined {
  const named = daysNamed(ctx.userMessage, ctx.today);
  if (named === 'any') return undefined;
  if (named.size > 0) return named.has(day) ? undefined : `the user did not name ${dayName(day)}`;
  if (ctx.planChanges >= 1) return 'the user named no day, so only one meal may change';
  ctx.planChanges += 1;
  return undefined;
}

const SEARCH_PAGE_SIZE = 50;
/** At most this many pages (2,500 recipes) are looked through for one search. */
const SEARCH_PAGES = 50;

/** The diet tag an allergy implies, where one exists (the rest is checked per recipe). */
function dietFor(allergy: string): string[] {
  const tag = ({ nuts: 'nut_free', gluten: 'gluten_free', dairy: 'dairy_free' } as Record<string, string>)[
    allergy
  ];
  return tag ? [tag] : [];
}

function isSafe(recipe: RecipeForUse, profile: UserProfile): boolean {
  return violatesProfile(recipe, profile).length === 0;
}

async function visibleRecipe(
  id: string,
  ctx: ToolContext,
  deps: AssistantDeps,
): Promise<RecipeForUse | undefined> {
  return isUuid(id) ? deps.recipes.getVisible(id, ctx.viewer) : undefined;
}

function presentPlan(plan: PlanView) {
  return {
    week_start: plan.weekStart,
    slots: [...plan.slots]
      .sort(
        (a, b) =>
          a.day - b.day ||
          MEAL_TYPES.indexOf(a.mealType as MealType) - MEAL_TYPES.indexOf(b.mealType as MealType),
      )
      .map((s) => ({
        day: s.day,
        day_name: dayName(s.day),
        meal_type: s.mealType,
        recipe_id: s.recipeId,
        recipe_title: s.recipeTitle,
        servings: s.servings,
        is_completed: s.isCompleted,
      })),
  };
}

function presentPantryItem(item: {
  id: string;
  name: string;
  quantity: number;
  unit: string;
  location: string;
  expiryDate: string | null;
  isExpiringSoon: boolean;
}) {
  return {
    id: item.id,
    name: item.name,
    quantity: item.quantity,
    unit: item.unit,
    location: item.location,
    expiry_date: item.expiryDate,
    is_expiring_soon: item.isExpiringSoon,
  };
}

export function presentRecipe(recipe: RecipeForUse) {
  return {
    id: recipe.id,
    title: recipe.title,
    description: recipe.description,
    cuisine: recipe.cuisine,
    difficulty: recipe.difficulty,
    prep_time: recipe.prepTime,
    cook_time: recipe.cookTime,
    servings: recipe.servings,
    ingredients: recipe.ingredients.map((i) => `${i.quantity} ${i.unit} ${i.name}`),
    steps: recipe.steps.map((s, i) => `${i + 1}. ${s}`),
    nutrition_per_serving: recipe.nutrition,
  };
}
