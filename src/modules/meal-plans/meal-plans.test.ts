import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';
import { addStock, createPlan, dayFromToday, ING, mondayIn } from '../../../test/support/kitchen.ts';
import { createRecipe, ensureIngredients } from '../../../test/support/recipes.ts';
import { addDays } from '../pantry/dates.ts';

let ctx: TestApp;
let api: Api;
beforeAll(async () => {
  ctx = await startTestApp();
  api = client(ctx.baseUrl);
  await ensureIngredients(ctx);
});
afterAll(() => ctx.close());

const ISO_TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f-]{36}$/;

const newPlan = (user: TestUser, weekStart: string) =>
  api('POST', '/api/meal-plans', { token: user.token, body: { week_start: weekStart } });
const addSlot = (user: TestUser, planId: string, body: unknown) =>
  api('POST', `/api/meal-plans/${planId}/slots`, { token: user.token, body });
const putSlot = (user: TestUser, planId: string, slotId: string, body: unknown) =>
  api('PUT', `/api/meal-plans/${planId}/slots/${slotId}`, { token: user.token, body });

describe('meal plans', () => {
  it('creates an empty plan for a Monday (201) and lists plans newest week first with slot counts', async () => {
    const user = await createUser(ctx);
    const recipe = await createRecipe(ctx, user);
    const later = await newPlan(user, mondayIn(1));
    expect(later.status).toBe(201);
    expect(later.body).toEqual({ id: expect.stringMatching(UUID), week_start: mondayIn(1), slots: [] });
    const earlier = await newPlan(user, mondayIn(-1));
    await addSlot(user, earlier.body.id, { day: 0, meal_type: 'lunch', recipe_id: recipe.id });
    await addSlot(user, earlier.body.id, { day: 1, meal_type: 'lunch', recipe_id: recipe.id });

    const res = await api('GET', '/api/meal-plans', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: later.body.id,
        week_start: mondayIn(1),
        created_at: expect.stringMatching(ISO_TS),
        slot_count: 0,
      },
      {
        id: earlier.body.id,
        week_start: mondayIn(-1),
        created_at: expect.stringMatching(ISO_TS),
        slot_count: 2,
      },
    ]);
    expect((await api('GET', '/api/meal-plans?limit=1&offset=1', { token: user.token })).body).toEqual([
      res.body[1],
    ]);
    expectProblem(
      await api('GET', '/api/meal-plans?limit=0', { token: user.token }),
      400,
      'validation_error',
    );
  });

  it('refuses a week_start that is not a Monday or not a date (400) and a second plan for a week (409)', async () => {
    const user = await createUser(ctx);
    const monday = mondayIn(5);
    for (const weekStart of [addDays(monday, 1), addDays(monday, 6), '2026-11-31', '23/11/2026']) {
      const problem = expectProblem(await newPlan(user, weekStart), 400, 'validation_error');
      expect(problem.errors.map((e: any) => e.field)).toEqual(['week_start']);
    }
    expect((await newPlan(user, monday)).status).toBe(201);
    expectProblem(await newPlan(user, monday), 409, 'conflict');
    // another user may plan the same week
    expect((await newPlan(await createUser(ctx), monday)).status).toBe(201);
  });

  it('adds slots (201): servings default to the household size, recipe_title from the recipe', async () => {
    const user = await createUser(ctx, { profile: { household_size: 3 } });
    const recipe = await createRecipe(ctx, user, { title: 'Rice bowl' });
    const plan = (await newPlan(user, mondayIn(2))).body;
    const res = await addSlot(user, plan.id, { day: 2, meal_type: 'dinner', recipe_id: recipe.id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      day: 2,
      meal_type: 'dinner',
      recipe_id: recipe.id,
      recipe_title: 'Rice bowl',
      servings: 3,
      is_flex: false,
      flex_type: null,
      is_completed: false,
    });
    const breakfast = await addSlot(user, plan.id, {
      day: 2,
      meal_type: 'breakfast',
      recipe_id: recipe.id,
      servings: 1,
    });
    expect(breakfast.body.servings).toBe(1);
    const monday = await addSlot(user, plan.id, {
      day: 0,
      meal_type: 'snack',
      recipe_id: null,
      is_flex: true,
      flex_type: 'social',
    });
    expect(monday.body).toMatchObject({
      recipe_id: null,
      recipe_title: null,
      is_flex: true,
      flex_type: 'social',
    });

    const detail = await api('GET', `/api/meal-plans/${plan.id}`, { token: user.token });
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual({
      id: plan.id,
      week_start: mondayIn(2),
      slots: [monday.body, breakfast.body, res.body],
    });
  });

  it('validates slots: recipe_id must be visible (400 on recipe_id), day, meal type, servings, flex_type', async () => {
    const user = await createUser(ctx);
    const stranger = await createUser(ctx);
    const hidden = await createRecipe(ctx, stranger);
    const plan = (await newPlan(user, mondayIn(3))).body;
    const cases: [unknown, string][] = [
      [{ day: 0, meal_type: 'lunch', recipe_id: hidden.id }, 'recipe_id'],
      [{ day: 0, meal_type: 'lunch', recipe_id: '00000000-0000-4000-8000-000000000000' }, 'recipe_id'],
      [{ day: 0, meal_type: 'lunch', recipe_id: 'not-a-uuid' }, 'recipe_id'],
      [{ day: 7, meal_type: 'lunch', recipe_id: null }, 'day'],
      [{ day: -1, meal_type: 'lunch', recipe_id: null }, 'day'],
      [{ day: 0, meal_type: 'brunch', recipe_id: null }, 'meal_type'],
      [{ day: 0, meal_type: 'lunch', recipe_id: null, servings: 0 }, 'servings'],
      [{ day: 0, meal_type: 'lunch', recipe_id: null, flex_type: 'effort' }, 'flex_type'],
      [{ day: 0, meal_type: 'lunch', recipe_id: null, is_flex: true, flex_type: 'lazy' }, 'flex_type'],
    ];
    for (const [body, field] of cases) {
      const problem = expectProblem(await addSlot(user, plan.id, body), 400, 'validation_error');
      expect(problem.errors.map((e: any) => e.field)).toContain(field);
    }
    expect((await api('GET', `/api/meal-plans/${plan.id}`, { token: user.token })).body.slots).toEqual([]);
  });

  it('updates a slot: recipe (and title), servings, completion, and the flex_type rule', async () => {
    const user = await createUser(ctx);
    const first = await createRecipe(ctx, user, { title: 'First' });
    const second = await createRecipe(ctx, user, { title: 'Second' });
    const plan = (await newPlan(user, mondayIn(4))).body;
    const slot = (
      await addSlot(user, plan.id, { day: 4, meal_type: 'lunch', recipe_id: first.id, servings: 2 })
    ).body;

    const changed = await putSlot(user, plan.id, slot.id, {
      recipe_id: second.id,
      servings: 5,
      is_completed: true,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      ...slot,
      recipe_id: second.id,
      recipe_title: 'Second',
      servings: 5,
      is_completed: true,
      cooking: expect.objectContaining({ deducted: [], missing: expect.any(Array) }),
    });

    // flex_type on a slot that is not flex: 400; becoming flex in the same request: fine
    expectProblem(await putSlot(user, plan.id, slot.id, { flex_type: 'mental' }), 400, 'validation_error');
    expectProblem(
      await putSlot(user, plan.id, slot.id, { is_flex: false, flex_type: 'mental' }),
      400,
      'validation_error',
    );
    const flexed = await putSlot(user, plan.id, slot.id, { is_flex: true, flex_type: 'mental' });
    expect(flexed.body).toMatchObject({ is_flex: true, flex_type: 'mental' });
    expect((await putSlot(user, plan.id, slot.id, { flex_type: 'effort' })).body.flex_type).toBe('effort');
    expect((await putSlot(user, plan.id, slot.id, { flex_type: null })).body).toMatchObject({
      is_flex: true,
      flex_type: null,
    });
    await putSlot(user, plan.id, slot.id, { flex_type: 'nutrition' });
    // switching flex off clears the flex type
    expect((await putSlot(user, plan.id, slot.id, { is_flex: false })).body).toMatchObject({
      is_flex: false,
      flex_type: null,
    });

    expect((await putSlot(user, plan.id, slot.id, { recipe_id: null })).body).toMatchObject({
      recipe_id: null,
      recipe_title: null,
    });
    expect((await putSlot(user, plan.id, slot.id, {})).status).toBe(200);
    expectProblem(await putSlot(user, plan.id, slot.id, { servings: 0 }), 400, 'validation_error');
    expectProblem(await putSlot(user, plan.id, slot.id, { recipe_id: 'nope' }), 400, 'validation_error');
    expectProblem(await putSlot(user, plan.id, slot.id, { flex_type: 'lazy' }), 400, 'validation_error');
  });

  it('keeps a slot (recipe_id null, title kept) when its recipe is deleted', async () => {
    const user = await createUser(ctx, { tier: 'pro' });
    const recipe = await createRecipe(ctx, user, { title: 'Soon gone' });
    const plan = await createPlan(ctx, user, mondayIn(6), [
      { day: 1, mealType: 'dinner', recipeId: recipe.id },
    ]);
    expect((await api('DELETE', `/api/recipes/${recipe.id}`, { token: user.token })).status).toBe(204);
    const detail = (await api('GET', `/api/meal-plans/${plan.id}`, { token: user.token })).body;
    expect(detail.slots).toEqual([
      { ...detail.slots[0], recipe_id: null, recipe_title: 'Soon gone', day: 1 },
    ]);
  });

  it('removes a slot (204), then 404', async () => {
    const user = await createUser(ctx);
    const recipe = await createRecipe(ctx, user);
    const plan = await createPlan(ctx, user, mondayIn(13), [
      { day: 0, mealType: 'lunch', recipeId: recipe.id },
      { day: 1, mealType: 'lunch', recipeId: recipe.id },
    ]);
    const [first, second] = plan.slots;
    const remove = () =>
      api('DELETE', `/api/meal-plans/${plan.id}/slots/${first!.id}`, { token: user.token });
    expect((await remove()).status).toBe(204);
    expectProblem(await remove(), 404, 'not_found');
    const detail = (await api('GET', `/api/meal-plans/${plan.id}`, { token: user.token })).body;
    expect(detail.slots.map((s: any) => s.id)).toEqual([second!.id]);
  });

  it('deletes a plan (204) with its slots', async () => {
    const user = await createUser(ctx);
    const recipe = await createRecipe(ctx, user);
    const plan = await createPlan(ctx, user, mondayIn(7), [
      { day: 0, mealType: 'lunch', recipeId: recipe.id },
    ]);
    expect((await api('DELETE', `/api/meal-plans/${plan.id}`, { token: user.token })).status).toBe(204);
    expectProblem(await api('GET', `/api/meal-plans/${plan.id}`, { token: user.token }), 404, 'not_found');
    expect((await api('GET', '/api/meal-plans', { token: user.token })).body).toEqual([]);
    // the week is free again
    expect((await newPlan(user, mondayIn(7))).status).toBe(201);
  });

  it('answers 404 on every route for another user’s plan or slot and for malformed ids', async () => {
    const owner = await createUser(ctx);
    const other = await createUser(ctx);
    const recipe = await createRecipe(ctx, owner, { is_public: true });
    const plan = await createPlan(ctx, owner, mondayIn(8), [
      { day: 0, mealType: 'lunch', recipeId: recipe.id },
    ]);
    const slotId = plan.slots[0]!.id;
    const otherPlan = await createPlan(ctx, other, mondayIn(8));
    const t = other.token;
    expectProblem(await api('GET', `/api/meal-plans/${plan.id}`, { token: t }), 404, 'not_found');
    expectProblem(await api('GET', `/api/meal-plans/${plan.id}/nutrition`, { token: t }), 404, 'not_found');
    expectProblem(await api('DELETE', `/api/meal-plans/${plan.id}`, { token: t }), 404, 'not_found');
    expectProblem(
      await addSlot(other, plan.id, { day: 1, meal_type: 'lunch', recipe_id: recipe.id }),
      404,
      'not_found',
    );
    expectProblem(await putSlot(other, plan.id, slotId, { is_completed: true }), 404, 'not_found');
    // the other user's own plan id with the owner's slot id
    expectProblem(await putSlot(other, otherPlan.id, slotId, { is_completed: true }), 404, 'not_found');
    expectProblem(
      await api('DELETE', `/api/meal-plans/${plan.id}/slots/${slotId}`, { token: t }),
      404,
      'not_found',
    );
    expectProblem(await api('GET', '/api/meal-plans/not-a-uuid', { token: t }), 404, 'not_found');
    expectProblem(await putSlot(owner, plan.id, 'bad', {}), 404, 'not_found');

    const detail = (await api('GET', `/api/meal-plans/${plan.id}`, { token: owner.token })).body;
    expect(detail.slots).toEqual([expect.objectContaining({ id: slotId, is_completed: false })]);
  });

  it('requires a bearer token (401)', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['GET', '/api/meal-plans'],
      ['POST', '/api/meal-plans'],
      ['GET', `/api/meal-plans/${id}`],
      ['DELETE', `/api/meal-plans/${id}`],
      ['POST', `/api/meal-plans/${id}/slots`],
      ['PUT', `/api/meal-plans/${id}/slots/${id}`],
      ['GET', `/api/meal-plans/${id}/nutrition`],
    ] as const) {
      const res = await api(method, path, { body: method === 'POST' || method === 'PUT' ? {} : undefined });
      expectProblem(res, 401, 'unauthorized');
    }
  });
});

describe('GET /api/meal-plans/:id/nutrition', () => {
  it('lists 7 days of per-person nutrition (one serving per slot) and averages over days with meals', async () => {
    const user = await createUser(ctx);
    // per serving 120 g white rice: 438 kcal, 8.556 g protein, 95.94 g carbs, 0.792 g fat
    const rice = await createRecipe(ctx, user, {
      servings: 2,
      ingredients: [{ ingredient_id: ING.rice, quantity: 240, unit: 'g' }],
    });
    // per serving 300 g chicken breast: 360 kcal, 67.5 g protein, 0 g carbs, 7.86 g fat
    const chicken = await createRecipe(ctx, user, {
      servings: 1,
      ingredients: [{ ingredient_id: ING.chicken, quantity: 300, unit: 'g' }],
    });
    const plan = await createPlan(ctx, user, mondayIn(9), [
      { day: 0, mealType: 'dinner', recipeId: chicken.id, servings: 1 },
      { day: 0, mealType: 'breakfast', recipeId: rice.id, servings: 4 }, // servings do not scale it
      { day: 2, mealType: 'lunch', recipeId: rice.id, servings: 2 },
      { day: 4, mealType: 'lunch', recipeId: null, servings: 2 }, // no recipe: not a meal
    ]);
    const res = await api('GET', `/api/meal-plans/${plan.id}/nutrition`, { token: user.token });
    expect(res.status).toBe(200);
    const empty = (day: number, day_name: string) => ({
      day,
      day_name,
      total_calories: 0,
      total_protein: 0,
      total_carbs: 0,
      total_fat: 0,
      meals: [],
    });
    expect(res.body).toEqual({
      days: [
        {
          day: 0,
          day_name: 'Monday',
          total_calories: 798,
          total_protein: 76.1, // 8.556 + 67.5 = 76.056
          total_carbs: 95.9,
          total_fat: 8.7, // 0.792 + 7.86 = 8.652
          meals: [
            { meal_type: 'breakfast', calories: 438, protein: 8.6 },
            { meal_type: 'dinner', calories: 360, protein: 67.5 },
          ],
        },
        empty(1, 'Tuesday'),
        {
          day: 2,
          day_name: 'Wednesday',
          total_calories: 438,
          total_protein: 8.6,
          total_carbs: 95.9,
          total_fat: 0.8,
          meals: [{ meal_type: 'lunch', calories: 438, protein: 8.6 }],
        },
        empty(3, 'Thursday'),
        empty(4, 'Friday'),
        empty(5, 'Saturday'),
        empty(6, 'Sunday'),
      ],
      // (798 + 438) / 2 days with meals; (76.056 + 8.556) / 2 = 42.306
      week_totals: { avg_daily_calories: 618, avg_daily_protein: 42.3 },
    });
  });

  it('answers zeros for a plan without meals', async () => {
    const user = await createUser(ctx);
    const plan = await createPlan(ctx, user, mondayIn(10));
    const res = await api('GET', `/api/meal-plans/${plan.id}/nutrition`, { token: user.token });
    expect(res.body.days).toHaveLength(7);
    expect(res.body.days.map((d: any) => d.day_name)).toEqual([
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
      'Saturday',
      'Sunday',
    ]);
    expect(res.body.week_totals).toEqual({ avg_daily_calories: 0, avg_daily_protein: 0 });
  });
});

describe('MealPlansService methods used by plan generation and the assistant', () => {
  it('currentWeekStart is the Monday (UTC) of the week', () => {
    const s = ctx.services.mealPlans;
    expect(s.currentWeekStart(new Date('2026-11-22T23:30:00Z'))).toBe('2026-11-16'); // a Sunday
    expect(s.currentWeekStart(new Date('2026-11-23T00:00:00Z'))).toBe('2026-11-23'); // a Monday
    expect(s.currentWeekStart(new Date('2026-11-25T12:00:00Z'))).toBe('2026-11-23');
  });

  it('getOrCreatePlan, setSlot (replaces that day and meal), markCompleted and clearPlan', async () => {
    const user = await createUser(ctx, { profile: { household_size: 4 } });
    const s = ctx.services.mealPlans;
    const a = await createRecipe(ctx, user, { title: 'A' });
    const b = await createRecipe(ctx, user, { title: 'B' });
    const week = mondayIn(11);
    expect(await s.getPlanForWeek(user.user.id, week)).toBeUndefined();
    const plan = await s.getOrCreatePlan(user.user.id, week);
    expect((await s.getOrCreatePlan(user.user.id, week)).id).toBe(plan.id);

    await s.setSlot(user.user.id, plan.id, { day: 3, mealType: 'dinner', recipeId: a.id });
    const replaced = await s.setSlot(user.user.id, plan.id, {
      day: 3,
      mealType: 'dinner',
      recipeId: b.id,
      servings: 2,
    });
    expect(replaced).toMatchObject({ recipeTitle: 'B', servings: 2 });
    await s.setSlot(user.user.id, plan.id, { day: 3, mealType: 'lunch', recipeId: a.id });
    let detail = (await s.getPlanForWeek(user.user.id, week))!;
    expect(detail.slots.map((x) => [x.day, x.mealType, x.recipeTitle, x.servings])).toEqual([
      [3, 'lunch', 'A', 4],
      [3, 'dinner', 'B', 2],
    ]);

    const done = await s.markCompleted(user.user.id, plan.id, 3, 'dinner');
    expect(done.map((x) => x.isCompleted)).toEqual([true]);
    await expect(s.markCompleted(user.user.id, plan.id, 5, 'dinner')).rejects.toMatchObject({ status: 404 });
    detail = await s.getPlanDetail(user.user.id, plan.id);
    expect(detail.slots.map((x) => x.isCompleted)).toEqual([false, true]);

    expect(await s.clearPlan(user.user.id, plan.id)).toBe(2);
    expect((await s.getPlanDetail(user.user.id, plan.id)).slots).toEqual([]);
    await expect(s.clearPlan((await createUser(ctx)).user.id, plan.id)).rejects.toMatchObject({
      status: 404,
    });
  });

  it('replacePlan: 409 when the week has a plan unless replace, which keeps the plan id', async () => {
    const user = await createUser(ctx);
    const s = ctx.services.mealPlans;
    const a = await createRecipe(ctx, user, { title: 'A' });
    const week = mondayIn(12);
    const first = await s.replacePlan(
      user.user.id,
      week,
      [
        { day: 0, mealType: 'breakfast', recipeId: a.id, servings: 2 },
        { day: 1, mealType: 'lunch', recipeId: a.id, servings: 2 },
      ],
      { replace: false },
    );
    expect(first.slots).toHaveLength(2);
    await expect(s.replacePlan(user.user.id, week, [], { replace: false })).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
    });
    const second = await s.replacePlan(
      user.user.id,
      week,
      [{ day: 6, mealType: 'dinner', recipeId: a.id, servings: 3 }],
      { replace: true },
    );
    expect(second.id).toBe(first.id);
    expect(second.slots.map((x) => [x.day, x.mealType, x.servings])).toEqual([[6, 'dinner', 3]]);
    await expect(s.replacePlan(user.user.id, addDays(week, 2), [], { replace: true })).rejects.toMatchObject({
      status: 400,
    });
  });
});

describe('completing a slot is cooking it', () => {
  it('deducts the pantry at the slot’s servings (soonest expiry first), adds history and learns, exactly once', async () => {
    const user = await createUser(ctx);
    // 200 g flour and 2 eggs for 2 servings; the slot cooks 4 servings.
    const recipe = await createRecipe(ctx, user, {
      title: 'Pancakes',
      servings: 2,
      cuisine: 'french',
      ingredients: [
        { ingredient_id: ING.flour, quantity: 200, unit: 'g' },
        { ingredient_id: ING.egg, quantity: 2, unit: 'piece' },
        { ingredient_id: ING.milk, quantity: 300, unit: 'ml' },
      ],
    });
    const later = await addStock(ctx, user, {
      ingredientId: ING.flour,
      quantity: 1,
      unit: 'kg',
      expiryDate: dayFromToday(30),
    });
    const sooner = await addStock(ctx, user, {
      ingredientId: ING.flour,
      quantity: 300,
      unit: 'g',
      expiryDate: dayFromToday(2),
    });
    await addStock(ctx, user, { ingredientId: ING.egg, quantity: 3, unit: 'piece' });
    const before = (await api('GET', '/api/me/preferences', { token: user.token })).body;
    const plan = await createPlan(ctx, user, mondayIn(0), [
      { day: 2, mealType: 'dinner', recipeId: recipe.id, servings: 4 },
    ]);
    const slotId = plan.slots[0]!.id;

    const done = await putSlot(user, plan.id, slotId, { is_completed: true });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      is_completed: true,
      cooking: { cooked_at: expect.stringMatching(ISO_TS) },
    });
    expect(done.body.cooking.deducted).toEqual([
      { ingredient_id: ING.flour, name: expect.any(String), quantity: 400, unit: 'g' },
      { ingredient_id: ING.egg, name: expect.any(String), quantity: 3, unit: 'piece' },
    ]);
    expect(done.body.cooking.missing).toEqual([
      { ingredient_id: ING.egg, name: expect.any(String), quantity: 1, unit: 'piece' },
      { ingredient_id: ING.milk, name: expect.any(String), quantity: 600, unit: 'ml' },
    ]);
    const pantry = async () =>
      (await api('GET', '/api/inventory', { token: user.token })).body.items as any[];
    const afterCooking = await pantry();
    // The 300 g that expires first went first, then 100 g of the later bag; the eggs are gone.
    expect(afterCooking.find((i) => i.id === sooner.id)).toBeUndefined();
    expect(afterCooking.find((i) => i.id === later.id)).toMatchObject({ quantity: 0.9, unit: 'kg' });
    expect(afterCooking.some((i) => i.ingredient_id === ING.egg)).toBe(false);
    const history = (await api('GET', '/api/me/history', { token: user.token })).body;
    expect(history.items).toEqual([expect.objectContaining({ recipe_id: recipe.id, servings: 4 })]);
    const after = (await api('GET', '/api/me/preferences', { token: user.token })).body;
    expect(after).not.toEqual(before);

    // Un-completing and completing again cooks nothing more.
    expect((await putSlot(user, plan.id, slotId, { is_completed: false })).body.cooking).toBeNull();
    expect((await putSlot(user, plan.id, slotId, { is_completed: true })).body.cooking).toBeNull();
    expect(await pantry()).toEqual(afterCooking);
    expect((await api('GET', '/api/me/history', { token: user.token })).body.total).toBe(1);
  });

  it('the assistant’s mark_meal_completed cooks the same way, once', async () => {
    const user = await createUser(ctx);
    const recipe = await createRecipe(ctx, user, {
      servings: 1,
      ingredients: [{ ingredient_id: ING.rice, quantity: 100, unit: 'g' }],
    });
    await addStock(ctx, user, { ingredientId: ING.rice, quantity: 1, unit: 'kg' });
    const plan = await createPlan(ctx, user, mondayIn(0), [
      { day: 1, mealType: 'lunch', recipeId: recipe.id, servings: 2 },
    ]);
    const first = await ctx.services.mealPlans.markCompleted(user.user.id, plan.id, 1, 'lunch');
    expect(first[0]!.cooking?.deducted).toEqual([
      expect.objectContaining({ ingredientId: ING.rice, quantity: 200 }),
    ]);
    const again = await ctx.services.mealPlans.markCompleted(user.user.id, plan.id, 1, 'lunch');
    expect(again[0]!.cooking).toBeNull();
    const items = (await api('GET', '/api/inventory', { token: user.token })).body.items as any[];
    expect(items.find((i) => i.ingredient_id === ING.rice)).toMatchObject({ quantity: 0.8, unit: 'kg' });
  });
});
