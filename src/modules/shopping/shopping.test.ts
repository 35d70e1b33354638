import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';
import { addStock, createPlan, CUP_ML, ING, mondayIn } from '../../../test/support/kitchen.ts';
import { createRecipe, ensureIngredients } from '../../../test/support/recipes.ts';

let ctx: TestApp;
let api: Api;
beforeAll(async () => {
  ctx = await startTestApp();
  api = client(ctx.baseUrl);
  await ensureIngredients(ctx);
});
afterAll(() => ctx.close());

const ISO_TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function list(user: TestUser) {
  const res = await api('GET', '/api/shopping-list', { token: user.token });
  expect(res.status).toBe(200);
  return res.body as { items: any[]; total_items: number; checked_items: number };
}

const add = (user: TestUser, body: unknown) => api('POST', '/api/shopping-list', { token: user.token, body });
const generate = (user: TestUser, planId: string) =>
  api('POST', '/api/shopping-list/generate', { token: user.token, body: { meal_plan_id: planId } });

/** name → [quantity, unit] of the list's unchecked items. */
async function openQuantities(user: TestUser): Promise<Record<string, [number, string]>> {
  const { items } = await list(user);
  return Object.fromEntries(items.filter((i) => !i.is_checked).map((i) => [i.name, [i.quantity, i.unit]]));
}

describe('shopping list items', () => {
  it('adds an item (201) with exactly the spec fields', async () => {
    const user = await createUser(ctx);
    const res = await add(user, { ingredient_id: ING.rice, quantity: 500, unit: 'grams' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ingredient_id: ING.rice,
      name: 'white rice',
      quantity: 500,
      unit: 'g',
      is_checked: false,
      category: 'pantry staples',
      added_at: expect.stringMatching(ISO_TS),
    });
    expect(await list(user)).toEqual({ items: [res.body], total_items: 1, checked_items: 0 });
  });

  it('merges an ingredient already on the list unchecked, converting into that item’s unit', async () => {
    const user = await createUser(ctx);
    const rice = await add(user, { ingredient_id: ING.rice, quantity: 500, unit: 'g' });
    const merged = await add(user, { ingredient_id: ING.rice, quantity: 1.5, unit: 'kg' });
    expect(merged.status).toBe(201);
    expect(merged.body).toMatchObject({ id: rice.body.id, quantity: 2000, unit: 'g' });

    const milk = await add(user, { ingredient_id: ING.milk, quantity: 1, unit: 'l' });
    const moreMilk = await add(user, { ingredient_id: ING.milk, quantity: 2, unit: 'cups' });
    expect(moreMilk.body.id).toBe(milk.body.id);
    expect(moreMilk.body.quantity).toBeCloseTo(1 + (2 * CUP_ML) / 1000, 6);
    expect(moreMilk.body.unit).toBe('l');

    // Across kinds through the reference data: 2 eggs and 100 g of egg (50 g each) are 4 eggs.
    await add(user, { ingredient_id: ING.egg, quantity: 2, unit: 'piece' });
    const eggs = await add(user, { ingredient_id: ING.egg, quantity: 100, unit: 'g' });
    expect(eggs.body).toMatchObject({ quantity: 4, unit: 'piece' });

    expect((await list(user)).total_items).toBe(3);
  });

  it('does not merge into a checked item', async () => {
    const user = await createUser(ctx);
    const first = await add(user, { ingredient_id: ING.rice, quantity: 500, unit: 'g' });
    await api('PUT', `/api/shopping-list/${first.body.id}`, {
      token: user.token,
      body: { is_checked: true },
    });
    const second = await add(user, { ingredient_id: ING.rice, quantity: 200, unit: 'g' });
    expect(second.body.id).not.toBe(first.body.id);
    const body = await list(user);
    expect(body.total_items).toBe(2);
    expect(body.checked_items).toBe(1);
    // unchecked first
    expect(body.items.map((i) => [i.id, i.quantity, i.is_checked])).toEqual([
      [second.body.id, 200, false],
      [first.body.id, 500, true],
    ]);
  });

  it('merges concurrent additions of one ingredient into one item', async () => {
    const user = await createUser(ctx);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => add(user, { ingredient_id: ING.rice, quantity: 100, unit: 'g' })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    const body = await list(user);
    expect(body.items.map((i) => [i.quantity, i.unit])).toEqual([[600, 'g']]);
  });

  it('updates quantity, unit and checked state (all optional)', async () => {
    const user = await createUser(ctx);
    const item = (await add(user, { ingredient_id: ING.milk, quantity: 1, unit: 'l' })).body;
    const put = (body: unknown) => api('PUT', `/api/shopping-list/${item.id}`, { token: user.token, body });
    const checked = await put({ is_checked: true });
    expect(checked.status).toBe(200);
    expect(checked.body).toEqual({ ...item, is_checked: true });
    expect((await put({ quantity: 750, unit: 'ml' })).body).toEqual({
      ...item,
      is_checked: true,
      quantity: 750,
      unit: 'ml',
    });
    expect((await put({})).body).toMatchObject({ quantity: 750, unit: 'ml', is_checked: true });
    expect(await list(user)).toMatchObject({ total_items: 1, checked_items: 1 });
    expectProblem(await put({ quantity: 0 }), 400, 'validation_error');
    expectProblem(await put({ unit: 'parsec' }), 400, 'validation_error');
    expectProblem(await put({ is_checked: 'yes' }), 400, 'validation_error');
  });

  it('a new unit alone converts the quantity (500 g stays 500 g as 0.5 kg), 400 when it cannot', async () => {
    const user = await createUser(ctx);
    const rice = (await add(user, { ingredient_id: ING.rice, quantity: 500, unit: 'g' })).body;
    const put = (id: string, body: unknown) =>
      api('PUT', `/api/shopping-list/${id}`, { token: user.token, body });
    expect((await put(rice.id, { unit: 'kg' })).body).toMatchObject({ quantity: 0.5, unit: 'kg' });
    // Across weight and volume through the density (rice 0.78 g/ml): 0.5 kg = 641 ml.
    expect((await put(rice.id, { unit: 'ml' })).body.quantity).toBeCloseTo(641, 0);
    // A quantity sent with the unit is taken as written.
    expect((await put(rice.id, { quantity: 2, unit: 'kg' })).body).toMatchObject({ quantity: 2, unit: 'kg' });
    const chicken = (await add(user, { ingredient_id: ING.chicken, quantity: 300, unit: 'g' })).body;
    const refused = expectProblem(await put(chicken.id, { unit: 'ml' }), 400, 'validation_error');
    expect(refused.errors).toEqual([expect.objectContaining({ field: 'unit' })]);
    expect((await list(user)).items.find((i: { id: string }) => i.id === chicken.id)).toMatchObject({
      quantity: 300,
      unit: 'g',
    });
  });

  it.each([
    [{ ingredient_id: 999_999, quantity: 1, unit: 'g' }, 'ingredient_id'],
    [{ ingredient_id: ING.chicken, quantity: 1, unit: 'cup' }, 'unit'],
    [{ ingredient_id: ING.rice, quantity: -1, unit: 'g' }, 'quantity'],
    [{ ingredient_id: ING.rice, unit: 'g' }, 'quantity'],
    [{ ingredient_id: 'rice', quantity: 1, unit: 'g' }, 'ingredient_id'],
  ])('refuses %j with 400 on %s', async (body, field) => {
    const user = await createUser(ctx);
    const problem = expectProblem(await add(user, body), 400, 'validation_error');
    expect(problem.errors.map((e: any) => e.field)).toContain(field);
  });

  it('deletes an item (204), then 404', async () => {
    const user = await createUser(ctx);
    const item = (await add(user, { ingredient_id: ING.rice, quantity: 1, unit: 'kg' })).body;
    expect((await api('DELETE', `/api/shopping-list/${item.id}`, { token: user.token })).status).toBe(204);
    expect((await list(user)).items).toEqual([]);
    expectProblem(
      await api('DELETE', `/api/shopping-list/${item.id}`, { token: user.token }),
      404,
      'not_found',
    );
  });

  it('answers 404 for another user’s item or a malformed id, and 401 without a token', async () => {
    const owner = await createUser(ctx);
    const other = await createUser(ctx);
    const item = (await add(owner, { ingredient_id: ING.rice, quantity: 1, unit: 'kg' })).body;
    expectProblem(
      await api('PUT', `/api/shopping-list/${item.id}`, { token: other.token, body: { is_checked: true } }),
      404,
      'not_found',
    );
    expectProblem(
      await api('DELETE', `/api/shopping-list/${item.id}`, { token: other.token }),
      404,
      'not_found',
    );
    expectProblem(
      await api('PUT', '/api/shopping-list/xyz', { token: owner.token, body: {} }),
      404,
      'not_found',
    );
    expect((await list(other)).items).toEqual([]);
    expect((await list(owner)).items).toEqual([item]);

    const id = item.id;
    for (const [method, path] of [
      ['GET', '/api/shopping-list'],
      ['POST', '/api/shopping-list'],
      ['PUT', `/api/shopping-list/${id}`],
      ['DELETE', `/api/shopping-list/${id}`],
      ['POST', '/api/shopping-list/generate'],
    ] as const) {
      const res = await api(method, path, { body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expectProblem(res, 401, 'unauthorized');
    }
  });

  it('lists unchecked lines for price comparison (ShoppingService.listUnchecked)', async () => {
    const user = await createUser(ctx);
    const rice = (await add(user, { ingredient_id: ING.rice, quantity: 1, unit: 'kg' })).body;
    const milk = (await add(user, { ingredient_id: ING.milk, quantity: 2, unit: 'l' })).body;
    await api('PUT', `/api/shopping-list/${milk.id}`, { token: user.token, body: { is_checked: true } });
    expect(await ctx.services.shopping.listUnchecked(user.user.id)).toEqual([
      {
        id: rice.id,
        ingredientId: ING.rice,
        name: 'white rice',
        quantity: 1,
        unit: 'kg',
        category: 'pantry staples',
      },
    ]);
  });
});

describe('POST /api/shopping-list/generate', () => {
  /**
   * Recipe A (2 servings): rice 200 g, milk 1 cup, chicken 300 g, olive oil 2 tbsp.
   * Recipe B (4 servings): rice 0.4 kg, milk 500 ml.
   * Plan: A for 4 (×2) and B for 2 (×0.5) → rice 400 g + 200 g = 600 g; milk 2 cups + 250 ml =
   * 723.176 ml; chicken 600 g; olive oil 4 tbsp = 59.148 ml.
   * Pantry: olive oil 0.5 l (covers it), rice 250 g, milk 0.5 l. List before: rice 0.5 kg (manual).
   * → rice 0.5 kg + 350 g = 0.85 kg; milk 223.176 ml; chicken 600 g; olive oil skipped.
   */
  async function kitchen() {
    const user = await createUser(ctx);
    const a = await createRecipe(ctx, user, {
      servings: 2,
      ingredients: [
        { ingredient_id: ING.rice, quantity: 200, unit: 'g' },
        { ingredient_id: ING.milk, quantity: 1, unit: 'cup' },
        { ingredient_id: ING.chicken, quantity: 300, unit: 'g' },
        { ingredient_id: ING.oliveOil, quantity: 2, unit: 'tbsp' },
      ],
    });
    const b = await createRecipe(ctx, user, {
      servings: 4,
      ingredients: [
        { ingredient_id: ING.rice, quantity: 0.4, unit: 'kg' },
        { ingredient_id: ING.milk, quantity: 500, unit: 'ml' },
      ],
    });
    const plan = await createPlan(ctx, user, mondayIn(1), [
      { day: 0, mealType: 'dinner', recipeId: a.id, servings: 4 },
      { day: 1, mealType: 'lunch', recipeId: b.id, servings: 2 },
      { day: 2, mealType: 'dinner', recipeId: null, servings: 2 },
    ]);
    await addStock(ctx, user, { ingredientId: ING.oliveOil, quantity: 0.5, unit: 'l' });
    await addStock(ctx, user, { ingredientId: ING.rice, quantity: 250, unit: 'g' });
    await addStock(ctx, user, { ingredientId: ING.milk, quantity: 0.5, unit: 'l' });
    await add(user, { ingredient_id: ING.rice, quantity: 0.5, unit: 'kg' });
    return { user, plan, a, b };
  }

  it('sums the scaled recipes, subtracts the pantry and merges into the list', async () => {
    const { user, plan } = await kitchen();
    const res = await generate(user, plan.id);
    expect(res.status).toBe(200);
    expect(res.body.added_items).toBe(3);
    expect(res.body.skipped_in_pantry).toBe(1);
    // sorted by category: dairy & eggs, meat & fish, pantry staples
    expect(res.body.items.map((i: any) => [i.name, i.unit, i.category, i.is_checked])).toEqual([
      ['milk', 'ml', 'dairy & eggs', false],
      ['chicken breast', 'g', 'meat & fish', false],
      ['white rice', 'kg', 'pantry staples', false],
    ]);
    const [milk, chicken, rice] = res.body.items;
    expect(milk.quantity).toBeCloseTo(2 * CUP_ML + 250 - 500, 6);
    expect(chicken.quantity).toBeCloseTo(600, 6);
    expect(rice.quantity).toBeCloseTo(0.85, 6);
    for (const item of res.body.items) {
      expect(Object.keys(item).sort()).toEqual(
        ['added_at', 'category', 'id', 'ingredient_id', 'is_checked', 'name', 'quantity', 'unit'].sort(),
      );
    }
    expect((await list(user)).total_items).toBe(3);
  });

  it('generating twice from the same plan does not double the list; changes are followed', async () => {
    const { user, plan } = await kitchen();
    await generate(user, plan.id);
    const before = await openQuantities(user);
    const again = await generate(user, plan.id);
    expect(again.body).toMatchObject({ added_items: 3, skipped_in_pantry: 1 });
    expect(await openQuantities(user)).toEqual(before);
    expect((await list(user)).total_items).toBe(3);

    // 200 g more chicken in the pantry: the plan's chicken share shrinks to 400 g
    await addStock(ctx, user, { ingredientId: ING.chicken, quantity: 200, unit: 'g' });
    await generate(user, plan.id);
    expect((await openQuantities(user))['chicken breast']![0]).toBeCloseTo(400, 6);

    // without B: rice 400 − 250 = 150 g on top of the manual 0.5 kg; milk 473.176 ml is covered by 0.5 l
    const b = plan.slots.find((s) => s.day === 1)!;
    await ctx.services.mealPlans.deleteSlot(user.user.id, plan.id, b.id);
    const third = await generate(user, plan.id);
    expect(third.body).toMatchObject({ added_items: 2, skipped_in_pantry: 2 });
    const now = await openQuantities(user);
    expect(Object.keys(now).sort()).toEqual(['chicken breast', 'white rice']);
    expect(now['white rice']![0]).toBeCloseTo(0.65, 6);
  });

  it('regenerating an unchanged plan leaves its rows as they are (same ids, nothing rewritten)', async () => {
    const { user, plan } = await kitchen();
    const first = await generate(user, plan.id);
    const again = await generate(user, plan.id);
    expect(again.body).toEqual(first.body);
    expect((await list(user)).items).toEqual(first.body.items);
  });

  it('concurrent generations from one plan still leave each need on the list once', async () => {
    const { user, plan } = await kitchen();
    const results = await Promise.all([1, 2, 3].map(() => generate(user, plan.id)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const now = await openQuantities(user);
    expect(Object.keys(now).sort()).toEqual(['chicken breast', 'milk', 'white rice']);
    expect(now['chicken breast']![0]).toBeCloseTo(600, 6);
    expect(now['milk']![0]).toBeCloseTo(2 * CUP_ML + 250 - 500, 6);
    expect(now['white rice']![0]).toBeCloseTo(0.85, 6);
  });

  it('keeps the user’s own quantity when a plan’s share is replaced', async () => {
    const { user, plan } = await kitchen();
    await generate(user, plan.id);
    // the user adds 100 g chicken by hand: merged into the generated row
    await add(user, { ingredient_id: ING.chicken, quantity: 100, unit: 'g' });
    await generate(user, plan.id);
    expect((await openQuantities(user))['chicken breast']![0]).toBeCloseTo(700, 6);
  });

  it('leaves checked items alone', async () => {
    const { user, plan } = await kitchen();
    const first = await generate(user, plan.id);
    const chicken = first.body.items.find((i: any) => i.name === 'chicken breast');
    await api('PUT', `/api/shopping-list/${chicken.id}`, { token: user.token, body: { is_checked: true } });
    await generate(user, plan.id);
    const { items } = await list(user);
    expect(items.find((i) => i.id === chicken.id)).toMatchObject({ is_checked: true, quantity: 600 });
  });

  it('counts an ingredient the pantry fully covers and adds nothing for it', async () => {
    const user = await createUser(ctx);
    const recipe = await createRecipe(ctx, user, {
      servings: 2,
      ingredients: [
        { ingredient_id: ING.flour, quantity: 2, unit: 'cup' }, // 250.78 g
        { ingredient_id: ING.egg, quantity: 3, unit: 'piece' },
      ],
    });
    const plan = await createPlan(ctx, user, mondayIn(2), [
      { day: 3, mealType: 'breakfast', recipeId: recipe.id, servings: 2 },
    ]);
    await addStock(ctx, user, { ingredientId: ING.flour, quantity: 1, unit: 'kg' });
    await addStock(ctx, user, { ingredientId: ING.egg, quantity: 100, unit: 'g' }); // 2 eggs
    const res = await generate(user, plan.id);
    expect(res.body).toMatchObject({ added_items: 1, skipped_in_pantry: 1 });
    expect(res.body.items.map((i: any) => [i.name, i.quantity, i.unit])).toEqual([['egg', 1, 'piece']]);
  });

  it('keeps amounts that cannot be converted into one another on separate items', async () => {
    const user = await createUser(ctx);
    const grams = await createRecipe(ctx, user, {
      servings: 1,
      ingredients: [{ ingredient_id: ING.chicken, quantity: 300, unit: 'g' }],
    });
    const cups = await createRecipe(ctx, user, {
      servings: 1,
      ingredients: [{ ingredient_id: ING.chicken, quantity: 1, unit: 'cup' }], // no density
    });
    const plan = await createPlan(ctx, user, mondayIn(3), [
      { day: 0, mealType: 'lunch', recipeId: grams.id, servings: 1 },
      { day: 0, mealType: 'dinner', recipeId: cups.id, servings: 2 },
    ]);
    const res = await generate(user, plan.id);
    expect(res.body.items.map((i: any) => [i.quantity, i.unit]).sort()).toEqual([
      [2, 'cup'],
      [300, 'g'],
    ]);
    await generate(user, plan.id);
    expect((await list(user)).items.map((i) => [i.quantity, i.unit]).sort()).toEqual([
      [2, 'cup'],
      [300, 'g'],
    ]);
  });

  it('answers 404 for another user’s plan and 400 for a malformed id', async () => {
    const { plan } = await kitchen();
    const other = await createUser(ctx);
    expectProblem(await generate(other, plan.id), 404, 'not_found');
    expectProblem(await generate(other, '00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    expectProblem(await generate(other, 'nope'), 400, 'validation_error');
    expect((await list(other)).items).toEqual([]);
  });
});
