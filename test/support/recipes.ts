import { randomBytes } from 'node:crypto';
import type { RecipeDetail, RecipeInput } from '../../src/modules/recipes/service.ts';
import type { TestApp } from './app.ts';
import type { TestUser } from './factories.ts';

/** An ingredient line by reference id or by reference name (resolved through the ingredients service). */
export type TestLine = ({ ingredient_id: number } | { name: string }) & { quantity: number; unit: string };

export interface RecipeOverrides extends Partial<Omit<RecipeInput, 'ingredients' | 'steps'>> {
  ingredients?: TestLine[];
  /** Instructions in order (numbered 1..n). */
  steps?: string[];
  /** Catalog recipes only: the slug (random by default). */
  slug?: string;
}

const seeded = new WeakSet<TestApp>();

/** The reference ingredients, loaded once per test app. */
export async function ensureIngredients(ctx: TestApp): Promise<void> {
  if (seeded.has(ctx)) return;
  await ctx.services.ingredients.seedIngredients();
  seeded.add(ctx);
}

async function idOf(ctx: TestApp, line: TestLine): Promise<number> {
  if ('ingredient_id' in line) return line.ingredient_id;
  const info = await ctx.services.ingredients.resolveName(line.name);
  if (!info) throw new Error(`test recipe: unknown ingredient "${line.name}"`);
  return info.id;
}

async function nameOf(ctx: TestApp, line: TestLine): Promise<string> {
  if ('name' in line) return line.name;
  const info = await ctx.services.ingredients.get(line.ingredient_id);
  if (!info) throw new Error(`test recipe: unknown ingredient id ${line.ingredient_id}`);
  return info.name;
}

let counter = 0;

/**
 * Inserts a real recipe through the recipes service: owned by `owner` (private unless
 * `is_public`), or a catalog recipe when `owner` is null (through upsertCatalogRecipe).
 */
export async function createRecipe(
  ctx: TestApp,
  owner: TestUser | null,
  overrides: RecipeOverrides = {},
): Promise<RecipeDetail> {
  await ensureIngredients(ctx);
  counter += 1;
  const lines: TestLine[] = overrides.ingredients ?? [
    { name: 'onion', quantity: 1, unit: 'piece' },
    { name: 'garlic', quantity: 2, unit: 'clove' },
    { name: 'olive oil', quantity: 1, unit: 'tbsp' },
  ];
  const steps = overrides.steps ?? ['Chop everything.', 'Cook it gently.'];
  const fields = {
    title: overrides.title ?? `Test recipe ${counter}`,
    description: overrides.description ?? 'A recipe made by the test factory.',
    cuisine: overrides.cuisine ?? 'italian',
    difficulty: overrides.difficulty ?? 'easy',
    prep_time: overrides.prep_time ?? 10,
    cook_time: overrides.cook_time ?? 20,
    servings: overrides.servings ?? 2,
  } as const;
  if (owner === null) {
    const id = await ctx.services.recipes.upsertCatalogRecipe({
      ...fields,
      slug: overrides.slug ?? `test-recipe-${counter}-${randomBytes(3).toString('hex')}`,
      meal_types: overrides.meal_types ?? ['lunch', 'dinner'],
      ingredients: await Promise.all(
        lines.map(async (l) => ({ name: await nameOf(ctx, l), quantity: l.quantity, unit: l.unit })),
      ),
      steps,
    });
    return ctx.services.recipes.getDetail(id, undefined);
  }
  return ctx.services.recipes.create(
    { id: owner.user.id, isAdmin: false },
    {
      ...fields,
      is_public: overrides.is_public,
      meal_types: overrides.meal_types,
      ingredients: await Promise.all(
        lines.map(async (l) => ({ ingredient_id: await idOf(ctx, l), quantity: l.quantity, unit: l.unit })),
      ),
      steps: steps.map((instruction, i) => ({ step_number: i + 1, instruction })),
    },
  );
}

/** The reference ingredients and the whole starter catalog (seed/catalog-*.ts). */
export async function seedCatalogForTest(ctx: TestApp) {
  await ensureIngredients(ctx);
  return ctx.services.recipes.seedCatalog();
}
