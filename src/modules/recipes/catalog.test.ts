import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, ADMIN_EMAIL, type TestApp } from '../../../test/support/app.ts';
import { createUser } from '../../../test/support/factories.ts';
import { client, type Api } from '../../../test/support/http.ts';
import { ensureIngredients, seedCatalogForTest } from '../../../test/support/recipes.ts';
import { catalogFiles, loadCatalogSeeds } from './catalog.ts';
import type { RecipeSeed } from './seed/types.ts';

let ctx: TestApp;
let api: Api;
let catalogSize = 0;
beforeAll(async () => {
  ctx = await startTestApp();
  api = client(ctx.baseUrl);
  catalogSize = (await loadCatalogSeeds()).length;
});
afterAll(() => ctx.close());

const seed = (over: Partial<RecipeSeed> = {}): RecipeSeed => ({
  slug: 'test-omelette',
  title: 'Test Omelette',
  description: 'Eggs, folded.',
  cuisine: 'French',
  meal_types: ['breakfast'],
  difficulty: 'easy',
  prep_time: 5,
  cook_time: 5,
  servings: 1,
  ingredients: [
    { name: 'eggs', quantity: 2, unit: 'pieces' },
    { name: 'butter', quantity: 1, unit: 'Tbsp' },
  ],
  steps: ['Beat the eggs.', 'Cook them in the butter and fold.'],
  ...over,
});

describe('catalog seeding', () => {
  it('reads every seed/catalog-*.ts file, each exporting RECIPES', async () => {
    const files = catalogFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(file).toMatch(/\/seed\/catalog-[^/]+\.ts$/);
    expect(catalogSize).toBeGreaterThan(0);
  });

  it('loads the whole catalog once, then finds nothing to do', async () => {
    expect(await seedCatalogForTest(ctx)).toEqual({ inserted: catalogSize, updated: 0, unchanged: 0 });
    expect(await seedCatalogForTest(ctx)).toEqual({ inserted: 0, updated: 0, unchanged: catalogSize });
    const list = await api('GET', '/api/recipes?limit=1');
    expect(list.body.total).toBe(catalogSize);
  });

  it('gives every catalog recipe nutrition, cuisine in lower case, and a detail anyone can read', async () => {
    const rows = await ctx.database.db
      .selectFrom('recipes')
      .select(['id', 'slug', 'cuisine', 'calories', 'owner_id', 'meal_types'])
      .where('slug', 'is not', null)
      .execute();
    expect(rows).toHaveLength(catalogSize);
    for (const row of rows) {
      expect(row.owner_id).toBeNull();
      expect(row.cuisine).toBe(row.cuisine.toLowerCase());
      expect(row.calories).toBeGreaterThan(0);
      expect(row.meal_types.length).toBeGreaterThan(0);
    }
    const detail = await api('GET', `/api/recipes/${rows[0]!.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.ingredients.length).toBeGreaterThan(0);
  });
});

describe('searching the real catalog', () => {
  it('puts chicken dishes first for q=chicken', async () => {
    await seedCatalogForTest(ctx);
    const res = await api('GET', '/api/recipes?q=chicken&limit=5');
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThanOrEqual(3);
    for (const item of res.body.items.slice(0, 3)) expect(item.title.toLowerCase()).toContain('chicken');
  });

  it('finds vegan recipes under 30 minutes, each really vegan and quick', async () => {
    await seedCatalogForTest(ctx);
    const res = await api('GET', '/api/recipes?dietary=vegan&max_time=30&limit=100');
    expect(res.body.total).toBeGreaterThan(0);
    for (const item of res.body.items) {
      expect(item.prep_time + item.cook_time).toBeLessThanOrEqual(30);
      const recipe = await ctx.services.recipes.getVisible(item.id, undefined);
      expect(recipe!.fits).toContain('vegan');
      expect(recipe!.allergens).not.toContain('dairy');
      expect(recipe!.allergens).not.toContain('eggs');
    }
  });
});

describe('upsertCatalogRecipe', () => {
  it('inserts by slug, canonicalises units, derives nutrition and replaces on a second call', async () => {
    await ensureIngredients(ctx);
    const id = await ctx.services.recipes.upsertCatalogRecipe(seed());
    const first = await ctx.services.recipes.getDetail(id, undefined);
    expect(first.cuisine).toBe('french');
    expect(first.ingredients.map((l) => [l.name, l.quantity, l.unit])).toEqual([
      ['egg', 2, 'piece'],
      ['butter', 1, 'tbsp'],
    ]);
    expect(first.allergens).toEqual(expect.arrayContaining(['eggs', 'dairy']));
    expect(first.fits).toContain('vegetarian');
    expect(first.fits).not.toContain('vegan');
    const again = await ctx.services.recipes.upsertCatalogRecipe(
      seed({ title: 'Better Omelette', servings: 2 }),
    );
    expect(again).toBe(id);
    const second = await ctx.services.recipes.getDetail(id, undefined);
    expect(second.title).toBe('Better Omelette');
    expect(second.nutrition.calories).toBeCloseTo(first.nutrition.calories / 2, 0);
  });

  it('names every unresolved ingredient and unit in one error', async () => {
    await expect(
      ctx.services.recipes.upsertCatalogRecipe(
        seed({
          slug: 'broken-one',
          ingredients: [
            { name: 'unobtainium', quantity: 1, unit: 'g' },
            { name: 'egg', quantity: 1, unit: 'fistful' },
          ],
        }),
      ),
    ).rejects.toThrow(
      /"broken-one": unknown ingredient "unobtainium"[\s\S]*unknown unit "fistful" for "egg"/,
    );
  });

  it('rejects invalid seeds and duplicate slugs, naming them', async () => {
    await expect(
      ctx.services.recipes.seedRecipes([
        seed({ slug: 'Not Kebab' }),
        seed({ slug: 'x' }),
        seed({ slug: 'x' }),
      ]),
    ).rejects.toThrow(/"Not Kebab": slug must be kebab-case[\s\S]*"x": duplicate slug/);
  });
});

describe('seeding keeps admin decisions', () => {
  it('does not overwrite an admin edit, rewrites a changed seed, and does not revive a deleted recipe', async () => {
    const admin = await createUser(ctx, { admin: true, email: ADMIN_EMAIL, tier: 'pro' });
    expect(
      await ctx.services.recipes.seedRecipes([seed({ slug: 'kept' }), seed({ slug: 'gone' })]),
    ).toMatchObject({ inserted: 2 });
    const ids = await ctx.database.db
      .selectFrom('recipes')
      .select(['id', 'slug'])
      .where('slug', 'in', ['kept', 'gone'])
      .execute();
    const idOf = (slug: string) => ids.find((r) => r.slug === slug)!.id;

    // A changed seed is rewritten.
    expect(await ctx.services.recipes.seedRecipes([seed({ slug: 'kept', title: 'Kept v2' })])).toMatchObject({
      updated: 1,
    });
    expect((await api('GET', `/api/recipes/${idOf('kept')}`)).body.title).toBe('Kept v2');

    // Once an admin edits it, seeding leaves it alone.
    const body = {
      title: 'Admin title',
      cuisine: 'french',
      difficulty: 'easy',
      prep_time: 1,
      cook_time: 1,
      servings: 1,
      ingredients: [
        {
          ingredient_id: (await ctx.services.ingredients.resolveName('egg'))!.id,
          quantity: 1,
          unit: 'piece',
        },
      ],
      steps: [{ step_number: 1, instruction: 'Cook.' }],
    };
    expect((await api('PUT', `/api/recipes/${idOf('kept')}`, { token: admin.token, body })).status).toBe(200);
    const outcome = await ctx.services.recipes.seedRecipes([
      seed({ slug: 'kept', title: 'Kept v3' }),
      seed({ slug: 'gone' }),
    ]);
    expect(outcome).toEqual({ inserted: 0, updated: 0, unchanged: 2 });
    expect((await api('GET', `/api/recipes/${idOf('kept')}`)).body.title).toBe('Admin title');

    // Deleted by an admin: not brought back by seeding, but an explicit upsert revives it.
    expect((await api('DELETE', `/api/recipes/${idOf('gone')}`, { token: admin.token })).status).toBe(204);
    expect(await ctx.services.recipes.seedRecipes([seed({ slug: 'gone' })])).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: 1,
    });
    expect((await api('GET', `/api/recipes/${idOf('gone')}`)).status).toBe(404);
    const revived = await ctx.services.recipes.upsertCatalogRecipe(seed({ slug: 'gone' }));
    expect((await api('GET', `/api/recipes/${revived}`)).status).toBe(200);
  });
});
