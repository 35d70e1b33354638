import type { MealType } from '../../src/modules/recipes/contract.ts';
import { weekStartOf } from '../../src/modules/meal-plans/week.ts';
import { addDays, utcDate } from '../../src/modules/pantry/dates.ts';
import { LOCATIONS } from '../../src/modules/pantry/tables.ts';
import type { BenchContext } from '../context.ts';
import { BENCH_SLUG_PREFIX, seedBenchRecipes } from './recipes.ts';

/**
 * A kitchen at scale through the real services: a user (registered, with an access token), a pantry
 * of `pantryRows` stock rows and, optionally, this week's 21-slot meal plan (breakfast, lunch and
 * dinner every day) over the synthetic catalog. Half the pantry rows hold ingredients the plan
 * needs, so that generation really subtracts stock; the rest are other ingredients.
 */
export interface BenchKitchen {
  userId: string;
  token: string;
  planId?: string;
}

const MEALS: MealType[] = ['breakfast', 'lunch', 'dinner'];

export async function benchUser(
  ctx: BenchContext,
  label: string,
): Promise<{ userId: string; token: string }> {
  const email = `bench-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
  const user = await ctx.built.services.accounts.register({ email, password: 'bench-password', name: label });
  const token = await ctx.built.deps.tokens.signAccess({ id: user.id, email, tier: 'free', isAdmin: false });
  return { userId: user.id, token };
}

export async function seedKitchen(
  ctx: BenchContext,
  options: { label: string; pantryRows: number; withPlan: boolean },
): Promise<BenchKitchen> {
  const { mealPlans, pantry, ingredients } = ctx.built.services;
  const { userId, token } = await benchUser(ctx, options.label);
  const needed: number[] = [];
  let planId: string | undefined;
  if (options.withPlan) {
    await seedBenchRecipes(ctx, 1000);
    const slugs = Array.from({ length: 21 }, (_, i) => `${BENCH_SLUG_PREFIX}${i + 1}`);
    const recipes = (await ctx.rawQuery('select id, slug from recipes where slug = any($1::text[])', [
      slugs,
    ])) as { id: string; slug: string }[];
    const bySlug = new Map(recipes.map((r) => [r.slug, r.id]));
    const plan = await mealPlans.createPlan(userId, weekStartOf(new Date()));
    planId = plan.id;
    for (let i = 0; i < 21; i++) {
      const recipeId = bySlug.get(slugs[i]!)!;
      await mealPlans.addSlot(userId, plan.id, {
        day: i % 7,
        mealType: MEALS[Math.floor(i / 7)]!,
        recipeId,
        servings: 2,
      });
    }
    const lines = (await ctx.rawQuery(
      'select distinct ingredient_id from recipe_ingredients where recipe_id = any($1::uuid[]) order by 1',
      [[...bySlug.values()]],
    )) as { ingredient_id: number }[];
    needed.push(...lines.map((l) => l.ingredient_id));
  }
  const all = await ingredients.all();
  const others = all.map((i) => i.id).filter((id) => !needed.includes(id));
  const today = utcDate(new Date());
  for (let i = 0; i < options.pantryRows; i++) {
    const useNeeded = needed.length > 0 && i % 2 === 0;
    const ingredientId = useNeeded ? needed[(i / 2) % needed.length]! : others[i % others.length]!;
    const info = all.find((x) => x.id === ingredientId)!;
    await pantry.add(userId, {
      ingredientId,
      quantity: info.defaultUnit === 'piece' ? 1 + (i % 3) : 50 + (i % 7) * 25,
      unit: info.defaultUnit,
      location: LOCATIONS[i % LOCATIONS.length]!,
      expiryDate: i % 5 === 0 ? null : addDays(today, (i % 30) - 3),
    });
  }
  // The steady state autovacuum keeps a table in: statistics for the planner and the visibility map
  // that lets the listing's counts read the index alone (a bulk insert has neither yet).
  if (ctx.databaseKind === 'postgres') await ctx.rawQuery('vacuum analyze inventory_items', []);
  return { userId, token, planId };
}
