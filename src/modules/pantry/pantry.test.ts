import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';
import { addStock, CUP_ML, dayFromToday, ING } from '../../../test/support/kitchen.ts';
import { createRecipe, ensureIngredients } from '../../../test/support/recipes.ts';
import { PantryRepository } from './repository.ts';
import { PantryService } from './service.ts';

let ctx: TestApp;
let api: Api;
beforeAll(async () => {
  ctx = await startTestApp();
  api = client(ctx.baseUrl);
  await ensureIngredients(ctx);
});
afterAll(() => ctx.close());

const ISO_TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function inventory(user: TestUser, query = '') {
  const res = await api('GET', `/api/inventory${query}`, { token: user.token });
  expect(res.status).toBe(200);
  return res.body as { items: any[]; expiring_count: number; total: number };
}

async function quantityOf(user: TestUser, id: string): Promise<number | undefined> {
  return (await inventory(user)).items.find((i) => i.id === id)?.quantity;
}

describe('inventory CRUD', () => {
  it('adds an item (201) with exactly the spec fields, the unit in canonical spelling', async () => {
    const user = await createUser(ctx);
    const expiry = dayFromToday(2);
    const res = await api('POST', '/api/inventory', {
      token: user.token,
      body: {
        ingredient_id: ING.flour,
        quantity: 500,
        unit: 'Grams',
        location: 'pantry',
        expiry_date: expiry,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ingredient_id: ING.flour,
      name: 'all-purpose flour',
      quantity: 500,
      unit: 'g',
      location: 'pantry',
      expiry_date: expiry,
      is_expiring_soon: true,
      added_at: expect.stringMatching(ISO_TS),
    });
    expect((await inventory(user)).items).toEqual([res.body]);
  });

  it.each([
    [{ ingredient_id: 999_999, quantity: 1, unit: 'g', location: 'fridge' }, 'ingredient_id'],
    [{ ingredient_id: ING.chicken, quantity: 1, unit: 'cup', location: 'fridge' }, 'unit'],
    [{ ingredient_id: ING.flour, quantity: 1, unit: 'bogus', location: 'fridge' }, 'unit'],
    [{ ingredient_id: ING.flour, quantity: 0, unit: 'g', location: 'fridge' }, 'quantity'],
    [{ ingredient_id: ING.flour, quantity: -2, unit: 'g', location: 'fridge' }, 'quantity'],
    [{ ingredient_id: ING.flour, quantity: 1, unit: 'g', location: 'garage' }, 'location'],
    [
      { ingredient_id: ING.flour, quantity: 1, unit: 'g', location: 'fridge', expiry_date: '2026-02-30' },
      'expiry_date',
    ],
    [
      { ingredient_id: ING.flour, quantity: 1, unit: 'g', location: 'fridge', expiry_date: '2026-1-5' },
      'expiry_date',
    ],
    [{ ingredient_id: ING.flour, quantity: '1', unit: 'g', location: 'fridge' }, 'quantity'],
    [{ quantity: 1, unit: 'g', location: 'fridge' }, 'ingredient_id'],
  ])('refuses %j with 400 on %s', async (body, field) => {
    const user = await createUser(ctx);
    const problem = expectProblem(
      await api('POST', '/api/inventory', { token: user.token, body }),
      400,
      'validation_error',
    );
    expect(problem.errors.map((e: any) => e.field)).toContain(field);
    expect((await inventory(user)).items).toEqual([]);
  });

  it('lists soonest expiry first (expired included, undated last) and filters by expiry and location', async () => {
    const user = await createUser(ctx);
    const add = (expiryDate: string | null, location: 'fridge' | 'freezer' | 'pantry') =>
      addStock(ctx, user, { ingredientId: ING.milk, quantity: 1, unit: 'l', location, expiryDate });
    const later = await add(dayFromToday(10), 'fridge');
    const expired = await add(dayFromToday(-1), 'pantry');
    const undated = await add(null, 'freezer');
    const inThree = await add(dayFromToday(3), 'fridge');
    const inFour = await add(dayFromToday(4), 'fridge');
    const today = await add(dayFromToday(0), 'pantry');

    const all = await inventory(user);
    expect(all.items.map((i) => i.id)).toEqual([
      expired.id,
      today.id,
      inThree.id,
      inFour.id,
      later.id,
      undated.id,
    ]);
    expect(all.items.map((i) => i.is_expiring_soon)).toEqual([true, true, true, false, false, false]);
    expect(all.expiring_count).toBe(3);

    const soon = await inventory(user, '?expiring_soon=true');
    expect(soon.items.map((i) => i.id)).toEqual([expired.id, today.id, inThree.id]);
    expect(soon.expiring_count).toBe(3);
    const notSoon = await inventory(user, '?expiring_soon=false');
    expect(notSoon.items.map((i) => i.id)).toEqual([inFour.id, later.id, undated.id]);
    expect(notSoon.expiring_count).toBe(0);

    const fridge = await inventory(user, '?location=fridge');
    expect(fridge.items.map((i) => i.id)).toEqual([inThree.id, inFour.id, later.id]);
    expect(fridge.expiring_count).toBe(1);
    const soonInFridge = await inventory(user, '?location=fridge&expiring_soon=true');
    expect(soonInFridge.items.map((i) => i.id)).toEqual([inThree.id]);

    expectProblem(
      await api('GET', '/api/inventory?location=garage', { token: user.token }),
      400,
      'validation_error',
    );
    expectProblem(
      await api('GET', '/api/inventory?expiring_soon=maybe', { token: user.token }),
      400,
      'validation_error',
    );
  });

  it('pages with limit/offset in the same order, total and expiring_count of the whole listing', async () => {
    const user = await createUser(ctx);
    const added = [];
    for (let day = -1; day < 11; day++) {
      added.push(
        await addStock(ctx, user, {
          ingredientId: ING.milk,
          quantity: 1,
          unit: 'l',
          location: day % 2 ? 'fridge' : 'pantry',
          expiryDate: dayFromToday(day),
        }),
      );
    }
    const whole = await inventory(user);
    // Without limit: every item, as clients written before pagination expect.
    expect(whole.items).toHaveLength(12);
    expect(whole).toMatchObject({ total: 12, expiring_count: 5 });
    const pages = [];
    for (let offset = 0; offset < 12; offset += 5) {
      const page = await inventory(user, `?limit=5&offset=${offset}`);
      expect(page).toMatchObject({ total: 12, expiring_count: 5 });
      pages.push(...page.items);
    }
    expect(pages.map((i) => i.id)).toEqual(whole.items.map((i) => i.id));
    expect(await inventory(user, '?limit=5&offset=40')).toEqual({ items: [], total: 12, expiring_count: 5 });
    const fridgePage = await inventory(user, '?location=fridge&limit=2');
    expect(fridgePage.items).toHaveLength(2);
    expect(fridgePage.total).toBe(6);
    const notSoon = await inventory(user, '?expiring_soon=false&limit=3&offset=6');
    expect(notSoon).toMatchObject({ total: 7, expiring_count: 0 });
    expect(notSoon.items).toHaveLength(1);
    for (const bad of ['?limit=0', '?limit=101', '?limit=x', '?offset=-1']) {
      expectProblem(await api('GET', `/api/inventory${bad}`, { token: user.token }), 400, 'validation_error');
    }
  });

  it('answers a repeated listing from its cache only while no change of any origin touched the pantry', async () => {
    const user = await createUser(ctx);
    const other = await createUser(ctx);
    const item = await addStock(ctx, user, { ingredientId: ING.milk, quantity: 1, unit: 'l' });
    const mine = await addStock(ctx, other, { ingredientId: ING.milk, quantity: 2, unit: 'l' });
    const read = async () => (await inventory(user, '?limit=10')).items.map((i) => [i.id, i.quantity]);
    expect(await read()).toEqual([[item.id, 1]]);
    expect(await read()).toEqual([[item.id, 1]]); // cached
    const db = ctx.database.db;
    // Writes that bypass the service (another instance, a fix by hand) raise the version too.
    await sql`update inventory_items set quantity = 3 where id = ${item.id}`.execute(db);
    expect(await read()).toEqual([[item.id, 3]]);
    await sql`insert into inventory_items (user_id, ingredient_id, quantity, unit, location)
              values (${user.user.id}, ${ING.flour}, 500, 'g', 'pantry')`.execute(db);
    expect(await read()).toHaveLength(2);
    await sql`delete from inventory_items where user_id = ${user.user.id}`.execute(db);
    expect(await read()).toEqual([]);
    // Another user's change leaves this user's version alone, and the other sees theirs.
    const versions = async () =>
      (
        await sql<{ user_id: string; version: string }>`select user_id, version::text from pantry_versions
        where user_id in (${user.user.id}, ${other.user.id}) order by version`.execute(db)
      ).rows;
    const before = await versions();
    await sql`update inventory_items set quantity = 4 where id = ${mine.id}`.execute(db);
    const after = await versions();
    expect(after.find((v) => v.user_id === user.user.id)).toEqual(
      before.find((v) => v.user_id === user.user.id),
    );
    expect(Number(after.find((v) => v.user_id === other.user.id)!.version)).toBe(
      Number(before.find((v) => v.user_id === other.user.id)!.version) + 1,
    );
    expect((await inventory(other)).items.map((i) => i.quantity)).toEqual([4]);
  });

  it('reads the pantry versions of listings that arrive together in one query, and sees a change made after them', async () => {
    const [a, b] = [await createUser(ctx), await createUser(ctx)];
    const repo = new PantryRepository(ctx.database.db);
    const reads: string[][] = [];
    const versions = repo.versions.bind(repo);
    repo.versions = (ids) => (reads.push([...ids]), versions(ids));
    const pantry = new PantryService(repo, ctx.services.ingredients, ctx.services.recipes);
    const stock = { ingredientId: ING.rice, quantity: 1, unit: 'kg', location: 'pantry' as const };
    await pantry.add(a.user.id, { ...stock, expiryDate: null });
    const listed = await Promise.all([a, b, a].map((u) => pantry.listItems(u.user.id)));
    expect(listed.map((l) => l.total)).toEqual([1, 0, 1]);
    expect(reads).toEqual([[a.user.id, b.user.id, a.user.id]]);
    await pantry.add(b.user.id, { ...stock, expiryDate: null });
    expect((await pantry.listItems(b.user.id)).total).toBe(1); // a new version: not the page held
    expect(reads).toHaveLength(2);
  });

  it('judges "expiring soon" on the UTC date of the injected clock: today + 3 days is the last one', async () => {
    const user = await createUser(ctx);
    const clock = () => new Date('2026-11-22T23:59:59.000Z');
    const pantry = new PantryService(
      new PantryRepository(ctx.database.db),
      ctx.services.ingredients,
      ctx.services.recipes,
      clock,
    );
    for (const expiryDate of ['2026-11-21', '2026-11-22', '2026-11-25', '2026-11-26', null]) {
      await pantry.add(user.user.id, {
        ingredientId: ING.rice,
        quantity: 1,
        unit: 'kg',
        location: 'pantry',
        expiryDate,
      });
    }
    const { items, expiringCount } = await pantry.listItems(user.user.id);
    expect(items.map((i) => [i.expiryDate, i.isExpiringSoon])).toEqual([
      ['2026-11-21', true],
      ['2026-11-22', true],
      ['2026-11-25', true],
      ['2026-11-26', false],
      [null, false],
    ]);
    expect(expiringCount).toBe(3);
    // PantryAccess.list (planner, chat): the same stock in the same order
    expect((await pantry.list(user.user.id)).map((i) => [i.expiryDate, i.isExpiringSoon, i.name])).toEqual(
      items.map((i) => [i.expiryDate, i.isExpiringSoon, 'white rice']),
    );
  });

  it('updates any subset of quantity, unit, location and expiry_date; null clears the expiry', async () => {
    const user = await createUser(ctx);
    const item = await addStock(ctx, user, {
      ingredientId: ING.milk,
      quantity: 1,
      unit: 'l',
      location: 'fridge',
      expiryDate: dayFromToday(1),
    });
    const put = (body: unknown) => api('PUT', `/api/inventory/${item.id}`, { token: user.token, body });

    const moved = await put({ location: 'freezer', expiry_date: null });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({
      id: item.id,
      ingredient_id: ING.milk,
      name: 'milk',
      quantity: 1,
      unit: 'l',
      location: 'freezer',
      expiry_date: null,
      is_expiring_soon: false,
      added_at: item.addedAt.toISOString(),
    });
    const resized = await put({ quantity: 750, unit: 'millilitres' });
    expect(resized.body).toMatchObject({ quantity: 750, unit: 'ml', location: 'freezer' });
    const redated = await put({ expiry_date: dayFromToday(0) });
    expect(redated.body).toMatchObject({
      expiry_date: dayFromToday(0),
      is_expiring_soon: true,
      quantity: 750,
    });
    expect((await put({})).body).toEqual(redated.body);

    expectProblem(await put({ quantity: 0 }), 400, 'validation_error');
    expectProblem(await put({ unit: 'furlong' }), 400, 'validation_error');
    expectProblem(await put({ location: 'attic' }), 400, 'validation_error');
    expectProblem(await put({ expiry_date: '2026-13-01' }), 400, 'validation_error');
    expect(await quantityOf(user, item.id)).toBe(750);
  });

  it('deletes (204), then the item is gone (404)', async () => {
    const user = await createUser(ctx);
    const item = await addStock(ctx, user, { ingredientId: ING.rice, quantity: 1, unit: 'kg' });
    expect((await api('DELETE', `/api/inventory/${item.id}`, { token: user.token })).status).toBe(204);
    expect((await inventory(user)).items).toEqual([]);
    expectProblem(await api('DELETE', `/api/inventory/${item.id}`, { token: user.token }), 404, 'not_found');
  });

  it('answers 404 for another user’s item and for malformed ids, leaving the item alone', async () => {
    const owner = await createUser(ctx);
    const other = await createUser(ctx);
    const item = await addStock(ctx, owner, { ingredientId: ING.rice, quantity: 2, unit: 'kg' });
    expectProblem(
      await api('PUT', `/api/inventory/${item.id}`, { token: other.token, body: { quantity: 1 } }),
      404,
      'not_found',
    );
    expectProblem(await api('DELETE', `/api/inventory/${item.id}`, { token: other.token }), 404, 'not_found');
    expectProblem(
      await api('PUT', '/api/inventory/not-a-uuid', { token: owner.token, body: {} }),
      404,
      'not_found',
    );
    expectProblem(await api('DELETE', '/api/inventory/123', { token: owner.token }), 404, 'not_found');
    expect((await inventory(other)).items).toEqual([]);
    expect(await quantityOf(owner, item.id)).toBe(2);
  });

  it('requires a bearer token on every route (401)', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['GET', '/api/inventory'],
      ['POST', '/api/inventory'],
      ['PUT', `/api/inventory/${id}`],
      ['DELETE', `/api/inventory/${id}`],
      ['POST', '/api/inventory/sync'],
    ] as const) {
      const res = await api(method, path, { body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expectProblem(res, 401, 'unauthorized');
    }
  });
});

describe('deduction (POST /api/inventory/sync, PantryService.deduct)', () => {
  const sync = (user: TestUser, recipeId: string, servings: number) =>
    api('POST', '/api/inventory/sync', { token: user.token, body: { recipe_id: recipeId, servings } });

  it('deducts grams of a recipe from stock kept in kg, scaled by servings / recipe servings', async () => {
    const user = await createUser(ctx);
    const stock = await addStock(ctx, user, { ingredientId: ING.chicken, quantity: 2, unit: 'kg' });
    const recipe = await createRecipe(ctx, user, {
      servings: 2,
      ingredients: [{ ingredient_id: ING.chicken, quantity: 300, unit: 'g' }],
    });
    const res = await sync(user, recipe.id, 4); // 300 g × 4/2 = 600 g
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ updated_items: 1, depleted_items: [] });
    expect(await quantityOf(user, stock.id)).toBeCloseTo(1.4, 9);
    // without servings: the recipe's own 2 servings, 300 g
    const plain = await api('POST', '/api/inventory/sync', {
      token: user.token,
      body: { recipe_id: recipe.id },
    });
    expect(plain.body).toEqual({ updated_items: 1, depleted_items: [] });
    expect(await quantityOf(user, stock.id)).toBeCloseTo(1.1, 9);
  });

  it('converts volume into weight through the density, and within volumes', async () => {
    const user = await createUser(ctx);
    const flour = await addStock(ctx, user, { ingredientId: ING.flour, quantity: 1, unit: 'kg' });
    const milk = await addStock(ctx, user, { ingredientId: ING.milk, quantity: 1, unit: 'l' });
    const eggs = await addStock(ctx, user, { ingredientId: ING.egg, quantity: 6, unit: 'piece' });
    const recipe = await createRecipe(ctx, user, {
      servings: 2,
      ingredients: [
        { ingredient_id: ING.flour, quantity: 2, unit: 'cup' },
        { ingredient_id: ING.milk, quantity: 2, unit: 'cups' },
        { ingredient_id: ING.egg, quantity: 200, unit: 'g' },
      ],
    });
    const res = await sync(user, recipe.id, 1); // half of everything
    expect(res.body).toEqual({ updated_items: 3, depleted_items: [] });
    // 1 cup flour = 236.588 ml × 0.53 g/ml = 125.39164 g = 0.12539164 kg
    expect(await quantityOf(user, flour.id)).toBeCloseTo(1 - (CUP_ML * 0.53) / 1000, 6);
    // 1 cup milk = 0.236588 l
    expect(await quantityOf(user, milk.id)).toBeCloseTo(1 - CUP_ML / 1000, 6);
    // 100 g of egg = 2 eggs of 50 g
    expect(await quantityOf(user, eggs.id)).toBeCloseTo(4, 6);
  });

  it('takes the soonest-expiring stock first across rows and units, removing and naming emptied rows', async () => {
    const user = await createUser(ctx);
    const laterDated = await addStock(ctx, user, {
      ingredientId: ING.rice,
      quantity: 500,
      unit: 'g',
      expiryDate: dayFromToday(10),
    });
    const undated = await addStock(ctx, user, { ingredientId: ING.rice, quantity: 1, unit: 'kg' });
    const soonest = await addStock(ctx, user, {
      ingredientId: ING.rice,
      quantity: 0.4,
      unit: 'kg',
      expiryDate: dayFromToday(2),
    });
    const recipe = await createRecipe(ctx, user, {
      servings: 1,
      ingredients: [{ ingredient_id: ING.rice, quantity: 600, unit: 'g' }],
    });
    const res = await sync(user, recipe.id, 1);
    expect(res.body).toEqual({ updated_items: 2, depleted_items: ['white rice'] });
    const items = (await inventory(user)).items;
    expect(items.map((i) => i.id)).toEqual([laterDated.id, undated.id]);
    expect(items[0].quantity).toBeCloseTo(300, 6); // 600 − 400 from the soonest row
    expect(items[1].quantity).toBe(1);
    expect(items.some((i) => i.id === soonest.id)).toBe(false);
  });

  it('leaves lines that cannot be converted untouched and does not count them', async () => {
    const user = await createUser(ctx);
    const chicken = await addStock(ctx, user, { ingredientId: ING.chicken, quantity: 1, unit: 'kg' });
    const rice = await addStock(ctx, user, { ingredientId: ING.rice, quantity: 1, unit: 'kg' });
    // chicken breast has no density: a cup of it cannot become grams
    const result = await ctx.services.pantry.deduct(user.user.id, [
      { ingredientId: ING.chicken, quantity: 1, unit: 'cup' },
      { ingredientId: ING.rice, quantity: 250, unit: 'g' },
      { ingredientId: ING.flour, quantity: 100, unit: 'g' }, // not in the pantry at all
    ]);
    expect(result).toMatchObject({ updatedItems: 1, depletedItems: [], deductedIngredients: 1 });
    expect(result.deducted.map((d) => d.ingredientId)).toEqual([ING.rice]);
    expect(result.missing.length).toBeGreaterThan(0);
    expect(await quantityOf(user, chicken.id)).toBe(1);
    expect(await quantityOf(user, rice.id)).toBeCloseTo(0.75, 9);
  });

  it('never takes the same stock twice under concurrent syncs', async () => {
    const user = await createUser(ctx);
    const stock = await addStock(ctx, user, { ingredientId: ING.rice, quantity: 1, unit: 'kg' });
    const recipe = await createRecipe(ctx, user, {
      servings: 1,
      ingredients: [{ ingredient_id: ING.rice, quantity: 100, unit: 'g' }],
    });
    const first = await Promise.all(Array.from({ length: 8 }, () => sync(user, recipe.id, 1)));
    expect(first.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(await quantityOf(user, stock.id)).toBeCloseTo(0.2, 9);

    // 4 more syncs of 100 g against 200 g left: exactly two take something, one of them empties it.
    const second = await Promise.all(Array.from({ length: 4 }, () => sync(user, recipe.id, 1)));
    expect(second.map((r) => r.body.updated_items).sort()).toEqual([0, 0, 1, 1]);
    expect(second.filter((r) => r.body.depleted_items.length > 0).map((r) => r.body.depleted_items)).toEqual([
      ['white rice'],
    ]);
    expect((await inventory(user)).items).toEqual([]);
  });

  it('cooking a recipe (POST /api/recipes/:id/cook) deducts through the pantry', async () => {
    const user = await createUser(ctx);
    const rice = await addStock(ctx, user, { ingredientId: ING.rice, quantity: 1, unit: 'kg' });
    const oil = await addStock(ctx, user, { ingredientId: ING.oliveOil, quantity: 30, unit: 'ml' });
    const recipe = await createRecipe(ctx, user, {
      servings: 2,
      ingredients: [
        { ingredient_id: ING.rice, quantity: 200, unit: 'g' },
        { ingredient_id: ING.oliveOil, quantity: 1, unit: 'tbsp' },
      ],
    });
    const res = await api('POST', `/api/recipes/${recipe.id}/cook`, {
      token: user.token,
      body: { servings: 4 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ inventory_updated: true, ingredients_deducted: 2 });
    expect(await quantityOf(user, rice.id)).toBeCloseTo(0.6, 9); // 200 g × 2
    expect(await quantityOf(user, oil.id)).toBeCloseTo(30 - 2 * 14.787, 6); // 2 tbsp
  });

  it('answers 404 for a recipe the caller cannot see and 400 for a malformed body', async () => {
    const owner = await createUser(ctx);
    const other = await createUser(ctx);
    const stock = await addStock(ctx, other, { ingredientId: ING.rice, quantity: 1, unit: 'kg' });
    const privateRecipe = await createRecipe(ctx, owner, {
      ingredients: [{ ingredient_id: ING.rice, quantity: 100, unit: 'g' }],
    });
    expectProblem(await sync(other, privateRecipe.id, 1), 404, 'not_found');
    expectProblem(await sync(other, '00000000-0000-4000-8000-000000000000', 1), 404, 'not_found');
    expectProblem(await sync(other, 'not-a-uuid', 1), 400, 'validation_error');
    expectProblem(await sync(other, privateRecipe.id, 0), 400, 'validation_error');
    expectProblem(await sync(other, privateRecipe.id, 1.5), 400, 'validation_error');
    expect(await quantityOf(other, stock.id)).toBe(1);
  });
});
