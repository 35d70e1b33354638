import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';
import { createRecipe, ensureIngredients } from '../../../test/support/recipes.ts';
import { RecipesRepository } from './repository.ts';

let ctx: TestApp;
let api: Api;
let pro: TestUser;
let admin: TestUser;
beforeAll(async () => {
  ctx = await startTestApp();
  api = client(ctx.baseUrl);
  await ensureIngredients(ctx);
  pro = await createUser(ctx, { tier: 'pro' });
  admin = await createUser(ctx, { admin: true, tier: 'pro' });
});
afterAll(() => ctx.close());

/** Until the search index has loaded (PostgreSQL answers searches before). */
async function waitForIndex(): Promise<void> {
  while (ctx.services.recipes.searchIndexState().mode === 'loading') {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('favourites', () => {
  it('POST marks and DELETE unmarks, both idempotent; is_favourite follows the caller', async () => {
    const { token } = await createUser(ctx);
    const other = await createUser(ctx);
    const recipe = await createRecipe(ctx, null, { title: 'Favourite fudge' });
    const path = `/api/recipes/${recipe.id}/favourite`;
    for (let i = 0; i < 2; i++) {
      const res = await api('POST', path, { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ is_favourite: true });
    }
    expect((await api('GET', `/api/recipes/${recipe.id}`, { token })).body.is_favourite).toBe(true);
    expect((await api('GET', `/api/recipes/${recipe.id}`, { token: other.token })).body.is_favourite).toBe(
      false,
    );
    expect((await api('GET', `/api/recipes/${recipe.id}`)).body.is_favourite).toBe(false);
    const search = async (t?: string) =>
      (await api('GET', '/api/recipes?q=fudge', t ? { token: t } : {})).body.items[0].is_favourite;
    expect(await search(token)).toBe(true);
    expect(await search(other.token)).toBe(false);
    expect(await search()).toBe(false);

    for (let i = 0; i < 2; i++) {
      const res = await api('DELETE', path, { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ is_favourite: false });
    }
    expect((await api('GET', `/api/recipes/${recipe.id}`, { token })).body.is_favourite).toBe(false);
    expect(await search(token)).toBe(false);
  });

  it("search pages show the caller's own favouriting at once, with their favourites held by the index", async () => {
    const { token } = await createUser(ctx);
    const recipe = await createRecipe(ctx, null, { title: 'Favourite flapjack' });
    const search = async () =>
      (await api('GET', '/api/recipes?q=flapjack', { token })).body.items[0].is_favourite;
    expect(await search()).toBe(false); // starts the index's load
    await waitForIndex();
    expect(await search()).toBe(false); // now held
    for (const on of [true, false, true]) {
      expect(
        (await api(on ? 'POST' : 'DELETE', `/api/recipes/${recipe.id}/favourite`, { token })).status,
      ).toBe(200);
      expect(await search()).toBe(on);
    }
  });

  it('answers 404 for a recipe the caller cannot see and 401 without a token', async () => {
    const { token } = await createUser(ctx);
    const hidden = await createRecipe(ctx, pro);
    expectProblem(await api('POST', `/api/recipes/${hidden.id}/favourite`, { token }), 404, 'not_found');
    expectProblem(await api('DELETE', `/api/recipes/${hidden.id}/favourite`, { token }), 404, 'not_found');
    expectProblem(await api('POST', '/api/recipes/junk/favourite', { token }), 404, 'not_found');
    expectProblem(await api('POST', `/api/recipes/${hidden.id}/favourite`), 401, 'unauthorized');
  });

  it('GET /api/me/favourites lists them newest first, paginated, with the spec fields', async () => {
    const { token } = await createUser(ctx);
    const made = [];
    for (let i = 0; i < 4; i++) {
      const recipe = await createRecipe(ctx, null, {
        title: `Fav ${i}`,
        cuisine: 'Thai',
        difficulty: 'hard',
        prep_time: i,
        cook_time: 10,
      });
      await ctx.services.recipes.attachImage(recipe.id, `https://img.test/${i}.png`, 'hero', {
        id: admin.user.id,
        isAdmin: true,
      });
      expect((await api('POST', `/api/recipes/${recipe.id}/favourite`, { token })).status).toBe(200);
      made.push(recipe);
      await new Promise((r) => setTimeout(r, 5)); // distinct favourited_at
    }
    const all = await api('GET', '/api/me/favourites', { token });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 4, limit: 20, offset: 0 });
    expect(ids(all.body.items)).toEqual(made.map((r) => r.id).reverse());
    expect(all.body.items[0]).toEqual({
      id: made[3]!.id,
      title: 'Fav 3',
      cuisine: 'thai',
      difficulty: 'hard',
      prep_time: 3,
      cook_time: 10,
      calories: Math.round(made[3]!.nutrition.calories),
      image_url: 'https://img.test/3.png',
    });
    const page = await api('GET', '/api/me/favourites?limit=2&offset=1', { token });
    expect(page.body).toMatchObject({ total: 4, limit: 2, offset: 1 });
    expect(ids(page.body.items)).toEqual([made[2]!.id, made[1]!.id]);
    expectProblem(await api('GET', '/api/me/favourites?limit=0', { token }), 400, 'validation_error');
    expectProblem(await api('GET', '/api/me/favourites?limit=101', { token }), 400, 'validation_error');
    expectProblem(await api('GET', '/api/me/favourites?offset=-1', { token }), 400, 'validation_error');
    expectProblem(await api('GET', '/api/me/favourites'), 401, 'unauthorized');
  });

  it('drops a favourite whose recipe became private or was deleted', async () => {
    const fan = await createUser(ctx);
    const shared = await createRecipe(ctx, pro, { is_public: true });
    const doomed = await createRecipe(ctx, pro, { is_public: true });
    for (const r of [shared, doomed])
      await api('POST', `/api/recipes/${r.id}/favourite`, { token: fan.token });
    expect((await api('GET', '/api/me/favourites', { token: fan.token })).body.total).toBe(2);
    const put = await api('PUT', `/api/recipes/${shared.id}`, {
      token: pro.token,
      body: {
        title: shared.title,
        cuisine: shared.cuisine,
        difficulty: shared.difficulty,
        prep_time: shared.prepTime,
        cook_time: shared.cookTime,
        servings: shared.servings,
        is_public: false,
        ingredients: shared.ingredients.map((l) => ({
          ingredient_id: l.ingredientId,
          quantity: l.quantity,
          unit: l.unit,
        })),
        steps: shared.steps.map((instruction, i) => ({ step_number: i + 1, instruction })),
      },
    });
    expect(put.status).toBe(200);
    expect(put.body.is_public).toBe(false);
    expect((await api('DELETE', `/api/recipes/${doomed.id}`, { token: pro.token })).status).toBe(204);
    expect((await api('GET', '/api/me/favourites', { token: fan.token })).body).toEqual({
      items: [],
      total: 0,
      limit: 20,
      offset: 0,
    });
  });
});

describe('ratings', () => {
  it('answers the aggregate; rating again replaces; the average has 2 decimals', async () => {
    const recipe = await createRecipe(ctx, null, { title: 'Rated risotto' });
    const [a, b, c] = await Promise.all([createUser(ctx), createUser(ctx), createUser(ctx)]);
    const rate = (token: string, body: unknown) =>
      api('POST', `/api/recipes/${recipe.id}/rate`, { token, body });

    const first = await rate(a!.token, { rating: 5, notes: 'Lovely' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ recipe_id: recipe.id, rating_avg: 5, rating_count: 1, your_rating: 5 });
    expect((await rate(a!.token, { rating: 3 })).body).toEqual({
      recipe_id: recipe.id,
      rating_avg: 3,
      rating_count: 1,
      your_rating: 3,
    });
    await rate(b!.token, { rating: 4 });
    expect((await rate(c!.token, { rating: 4 })).body).toEqual({
      recipe_id: recipe.id,
      rating_avg: 3.67,
      rating_count: 3,
      your_rating: 4,
    });
    const detail = (await api('GET', `/api/recipes/${recipe.id}`)).body;
    expect(detail).toMatchObject({ rating_avg: 3.67, rating_count: 3 });
    const summary = (await api('GET', '/api/recipes?q=risotto')).body.items[0];
    expect(summary).toMatchObject({ id: recipe.id, rating_avg: 3.67, rating_count: 3 });
    const stored = await ctx.database.db
      .selectFrom('recipe_ratings')
      .select(['rating', 'notes'])
      .where('recipe_id', '=', recipe.id)
      .where('user_id', '=', a!.user.id)
      .execute();
    expect(stored).toEqual([{ rating: 3, notes: null }]);
  });

  it('counts concurrent ratings of one recipe exactly', async () => {
    const recipe = await createRecipe(ctx, null);
    const users = await Promise.all(Array.from({ length: 8 }, () => createUser(ctx)));
    await Promise.all(
      users.map((u, i) =>
        api('POST', `/api/recipes/${recipe.id}/rate`, { token: u.token, body: { rating: (i % 5) + 1 } }),
      ),
    );
    const detail = (await api('GET', `/api/recipes/${recipe.id}`)).body;
    expect(detail.rating_count).toBe(8);
    expect(detail.rating_avg).toBe(Math.round(((1 + 2 + 3 + 4 + 5 + 1 + 2 + 3) / 8) * 100) / 100);
  });

  it('a 5-star rating moves the cuisine, difficulty and ingredient weights up', async () => {
    const { token } = await createUser(ctx);
    const recipe = await createRecipe(ctx, null, { cuisine: 'Peruvian', difficulty: 'hard' });
    await api('POST', `/api/recipes/${recipe.id}/rate`, { token, body: { rating: 5 } });
    const prefs = (await api('GET', '/api/me/preferences', { token })).body;
    expect(prefs.cuisine_weights.peruvian).toBeGreaterThan(0.5);
    expect(prefs.difficulty_weights.hard).toBeGreaterThan(0.5);
    expect(prefs.ingredient_weights.garlic).toBeGreaterThan(0.5);
    const low = await createUser(ctx);
    await api('POST', `/api/recipes/${recipe.id}/rate`, { token: low.token, body: { rating: 1 } });
    expect(
      (await api('GET', '/api/me/preferences', { token: low.token })).body.cuisine_weights.peruvian,
    ).toBeLessThan(0.5);
  });

  it('re-sending the same rating teaches nothing new; a changed rating is learned', async () => {
    const { token } = await createUser(ctx);
    const recipe = await createRecipe(ctx, null, { cuisine: 'Georgian' });
    const weight = async () =>
      (await api('GET', '/api/me/preferences', { token })).body.cuisine_weights.georgian;
    await api('POST', `/api/recipes/${recipe.id}/rate`, { token, body: { rating: 5 } });
    const once = await weight();
    expect(once).toBeCloseTo(0.575, 4);
    await api('POST', `/api/recipes/${recipe.id}/rate`, { token, body: { rating: 5 } });
    expect(await weight()).toBeCloseTo(once, 6);
    await api('POST', `/api/recipes/${recipe.id}/rate`, { token, body: { rating: 1 } });
    expect(await weight()).toBeCloseTo(0.575 - 0.15 * 0.575, 3);
  });

  it.each([
    { rating: 0 },
    { rating: 6 },
    { rating: 3.5 },
    { rating: '5' },
    {},
    { rating: 4, notes: 'x'.repeat(2001) },
  ])('rejects %j with 400', async (body) => {
    const recipe = await createRecipe(ctx, null);
    expectProblem(
      await api('POST', `/api/recipes/${recipe.id}/rate`, { token: pro.token, body }),
      400,
      'validation_error',
    );
  });

  it('answers 404 for a hidden recipe and 401 without a token', async () => {
    const { token } = await createUser(ctx);
    const hidden = await createRecipe(ctx, pro);
    expectProblem(
      await api('POST', `/api/recipes/${hidden.id}/rate`, { token, body: { rating: 5 } }),
      404,
      'not_found',
    );
    expectProblem(
      await api('POST', `/api/recipes/${hidden.id}/rate`, { body: { rating: 5 } }),
      401,
      'unauthorized',
    );
  });
});

async function stock(token: string, name: string, quantity: number, unit: string) {
  const info = (await ctx.services.ingredients.resolveName(name))!;
  const res = await api('POST', '/api/inventory', {
    token,
    body: { ingredient_id: info.id, quantity, unit, location: 'pantry' },
  });
  expect(res.status).toBe(201);
}

describe('cooking', () => {
  const lines = [
    { name: 'chicken breast', quantity: 300, unit: 'g' },
    { name: 'white rice', quantity: 200, unit: 'g' },
  ];

  it('deducts the pantry scaled to the servings, records history and learns preferences', async () => {
    const cook = await createUser(ctx);
    const recipe = await createRecipe(ctx, null, {
      title: 'Chicken rice',
      servings: 2,
      cuisine: 'Hainanese',
      ingredients: lines,
    });
    await stock(cook.token, 'chicken breast', 500, 'g');
    await stock(cook.token, 'white rice', 1, 'kg');

    const res = await api('POST', `/api/recipes/${recipe.id}/cook`, {
      token: cook.token,
      body: { servings: 4 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      cooked_at: expect.stringMatching(ISO),
      inventory_updated: true,
      ingredients_deducted: 2,
    });
    // 4 servings of a 2-serving recipe: 600 g chicken (only 500 there: used up), 400 g of 1 kg rice.
    const inventory = (await api('GET', '/api/inventory', { token: cook.token })).body.items;
    expect(inventory).toHaveLength(1);
    expect(inventory[0]).toMatchObject({ name: 'white rice' });
    const riceLeft = inventory[0].unit === 'kg' ? inventory[0].quantity * 1000 : inventory[0].quantity;
    expect(riceLeft).toBeCloseTo(600, 6);

    const history = (await api('GET', '/api/me/history', { token: cook.token })).body;
    expect(history).toEqual({
      items: [{ recipe_id: recipe.id, title: 'Chicken rice', cooked_at: res.body.cooked_at, servings: 4 }],
      total: 1,
    });
    const prefs = (await api('GET', '/api/me/preferences', { token: cook.token })).body;
    expect(prefs.cuisine_weights.hainanese).toBeGreaterThan(0.5);
    expect(prefs.ingredient_weights['chicken breast']).toBeGreaterThan(0.5);
  });

  it('defaults to the recipe’s servings (also without a body) and reports an untouched pantry', async () => {
    const cook = await createUser(ctx);
    const recipe = await createRecipe(ctx, null, { servings: 2, ingredients: lines });
    const empty = await api('POST', `/api/recipes/${recipe.id}/cook`, { token: cook.token });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ inventory_updated: false, ingredients_deducted: 0 });

    await stock(cook.token, 'white rice', 500, 'g');
    const res = await api('POST', `/api/recipes/${recipe.id}/cook`, { token: cook.token, body: {} });
    expect(res.body).toMatchObject({ inventory_updated: true, ingredients_deducted: 1 });
    const rice = (await api('GET', '/api/inventory', { token: cook.token })).body.items[0];
    expect(rice.quantity).toBeCloseTo(300, 6);
    const history = (await api('GET', '/api/me/history', { token: cook.token })).body;
    expect(history.items.map((i: { servings: number }) => i.servings)).toEqual([2, 2]);
  });

  it.each([{ servings: 0 }, { servings: 101 }, { servings: 2.5 }, { servings: 'two' }])(
    'rejects %j with 400',
    async (body) => {
      const recipe = await createRecipe(ctx, null);
      expectProblem(
        await api('POST', `/api/recipes/${recipe.id}/cook`, { token: pro.token, body }),
        400,
        'validation_error',
      );
    },
  );

  it('answers 404 for a hidden recipe and 401 without a token', async () => {
    const { token } = await createUser(ctx);
    const hidden = await createRecipe(ctx, pro);
    expectProblem(await api('POST', `/api/recipes/${hidden.id}/cook`, { token, body: {} }), 404, 'not_found');
    expectProblem(await api('POST', `/api/recipes/${hidden.id}/cook`, { body: {} }), 401, 'unauthorized');
  });
});

describe('GET /api/me/history', () => {
  it('lists newest first, 20 by default, paginated, only the caller’s', async () => {
    const cook = await createUser(ctx);
    const other = await createUser(ctx);
    const recipe = await createRecipe(ctx, null, { title: 'Daily porridge' });
    const base = Date.parse('2026-11-01T08:00:00.000Z');
    await ctx.database.db
      .insertInto('cooking_history')
      .values(
        Array.from({ length: 22 }, (_, i) => ({
          user_id: cook.user.id,
          recipe_id: recipe.id,
          title: recipe.title,
          servings: i + 1,
          cooked_at: new Date(base + i * 3_600_000),
        })),
      )
      .execute();
    await api('POST', `/api/recipes/${recipe.id}/cook`, { token: other.token, body: {} });

    const first = await api('GET', '/api/me/history', { token: cook.token });
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(22);
    expect(first.body.items).toHaveLength(20);
    expect(first.body.items[0]).toEqual({
      recipe_id: recipe.id,
      title: 'Daily porridge',
      cooked_at: new Date(base + 21 * 3_600_000).toISOString(),
      servings: 22,
    });
    const last = await api('GET', '/api/me/history?limit=5&offset=20', { token: cook.token });
    expect(last.body.items.map((i: { servings: number }) => i.servings)).toEqual([2, 1]);
    expect(last.body.total).toBe(22);
    expectProblem(
      await api('GET', '/api/me/history?limit=101', { token: cook.token }),
      400,
      'validation_error',
    );
    expectProblem(await api('GET', '/api/me/history'), 401, 'unauthorized');
  });
});

describe('a recipe deleted between reading and writing', () => {
  it('makes favouriting and rating answer "gone" and records cooking by title only', async () => {
    const repo = new RecipesRepository(ctx.database.db);
    const cook = await createUser(ctx);
    const gone = crypto.randomUUID();
    expect(await repo.setFavourite(cook.user.id, gone, true)).toBe(false);
    expect(await repo.rate(cook.user.id, gone, 5, null)).toBeUndefined();
    await repo.addHistory({
      userId: cook.user.id,
      recipeId: gone,
      title: 'Vanished',
      servings: 1,
      cookedAt: new Date(),
    });
    expect((await api('GET', '/api/me/history', { token: cook.token })).body.items).toEqual([
      { recipe_id: null, title: 'Vanished', cooked_at: expect.stringMatching(ISO), servings: 1 },
    ]);
  });
});
