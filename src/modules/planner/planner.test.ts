import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';
import { addStock, ING, mondayIn } from '../../../test/support/kitchen.ts';
import { addDays } from '../pantry/dates.ts';
import { startFakeLlm, type FakeLlm } from '../../../test/support/llm-fakes.ts';
import { checkWeeks, profileArb } from '../../../test/support/planner.ts';
import { createRecipe, seedCatalogForTest } from '../../../test/support/recipes.ts';
import { violatesProfile } from '../ingredients/diet.ts';
import { candidateWeeks } from './planner.ts';
import { POOL_PER_MEAL_TYPE, POOL_PER_SOURCE } from './service.ts';

/** POST /api/meal-plans/generate over the real starter catalog, with and without a model. */
let ctx: TestApp;
let api: Api;
let fake: FakeLlm;
let pro: TestUser;

beforeAll(async () => {
  fake = await startFakeLlm('openai');
  ctx = await startTestApp({
    LLM_BASE_URL: fake.baseUrl,
    RECIPE_MODEL: 'planner-model',
    LLM_TIMEOUT_MS: '2000',
  });
  api = client(ctx.baseUrl);
  await seedCatalogForTest(ctx);
  pro = await createUser(ctx, {
    tier: 'pro',
    profile: {
      allergies: ['nuts', 'dairy'],
      dietary_restrictions: ['vegetarian'],
      household_size: 4,
      health_goals: ['muscle_gain'],
    },
  });
  // Without scripted answers the model cannot choose: the planner's own best stands.
  fake.fallback = () => ({ text: 'I like them all.' });
});

afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const generate = (token: string, body: unknown) => api('POST', '/api/meal-plans/generate', { token, body });

describe('POST /api/meal-plans/generate', () => {
  it('fills 21 slots within every hard constraint, servings = household size, same shape as GET /api/meal-plans/:id', async () => {
    const res = await generate(pro.token, {
      week_start: mondayIn(1),
      preferences: { max_prep_time: 60, cuisines: [], avoid_repeated: true },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'slots', 'week_start']);
    expect(res.body.week_start).toBe(mondayIn(1));
    expect(res.body.slots).toHaveLength(21);
    const fetched = await api('GET', `/api/meal-plans/${res.body.id}`, { token: pro.token });
    expect(fetched.body).toEqual(res.body);

    const viewer = { id: pro.user.id, isAdmin: false };
    const recipeIds = res.body.slots.map((s: any) => s.recipe_id);
    expect(new Set(recipeIds).size).toBe(recipeIds.length);
    for (const slot of res.body.slots) {
      expect(slot).toEqual({
        id: expect.any(String),
        day: expect.any(Number),
        meal_type: expect.stringMatching(/^(breakfast|lunch|dinner)$/),
        recipe_id: expect.any(String),
        recipe_title: expect.any(String),
        servings: 4,
        is_flex: false,
        flex_type: null,
        is_completed: false,
      });
      const recipe = (await ctx.services.recipes.getVisible(slot.recipe_id, viewer))!;
      expect(
        violatesProfile(recipe, { allergies: ['nuts', 'dairy'], dietaryRestrictions: ['vegetarian'] }),
      ).toEqual([]);
      expect(recipe.prepTime + recipe.cookTime).toBeLessThanOrEqual(60);
      expect(recipe.mealTypes).toContain(slot.meal_type);
    }
    const perSlot = new Set(res.body.slots.map((s: any) => `${s.day}-${s.meal_type}`));
    expect(perSlot.size).toBe(res.body.slots.length);
  });

  it('409 when the week has a plan; replace:true rewrites it in place', async () => {
    const week = mondayIn(2);
    const first = await generate(pro.token, { week_start: week, preferences: { cuisines: ['italian'] } });
    expect(first.status).toBe(201);
    expectProblem(await generate(pro.token, { week_start: week }), 409, 'conflict');
    const again = await generate(pro.token, {
      week_start: week,
      replace: true,
      preferences: { cuisines: ['indian'] },
    });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    for (const slot of again.body.slots) {
      const recipe = await ctx.services.recipes.getVisible(slot.recipe_id, {
        id: pro.user.id,
        isAdmin: false,
      });
      expect(recipe!.cuisine).toBe('indian');
    }
  });

  it('leaves slots no recipe fits empty, and uses expiring pantry stock early', async () => {
    const user = await createUser(ctx, { tier: 'family', profile: { household_size: 2 } });
    const base = { cuisine: 'testland', meal_types: ['dinner' as const], prep_time: 5, cook_time: 10 };
    const withChicken = await createRecipe(ctx, user, {
      ...base,
      title: 'Chicken tray bake',
      ingredients: [{ ingredient_id: ING.chicken, quantity: 400, unit: 'g' }],
    });
    for (let i = 0; i < 8; i++) {
      await createRecipe(ctx, user, {
        ...base,
        title: `Rice dish ${i}`,
        ingredients: [{ ingredient_id: ING.rice, quantity: 200, unit: 'g' }],
      });
    }
    const week = mondayIn(1);
    await addStock(ctx, user, {
      ingredientId: ING.chicken,
      quantity: 500,
      unit: 'g',
      expiryDate: addDays(week, 1),
    });
    const res = await generate(user.token, {
      week_start: week,
      preferences: { cuisines: ['Testland'], avoid_repeated: true },
    });
    expect(res.status).toBe(201);
    expect(res.body.slots).toHaveLength(7);
    expect(res.body.slots.every((s: any) => s.meal_type === 'dinner' && s.servings === 2)).toBe(true);
    // The chicken expires on Tuesday: the planner puts it on Monday.
    expect(res.body.slots.find((s: any) => s.recipe_id === withChicken.id).day).toBe(0);
  });

  it('scores a bounded pool that the catalog query already filtered by diet, allergies and limits', async () => {
    const { recipes } = ctx.services;
    const whole = vi.spyOn(recipes, 'listCandidates');
    const pool = vi.spyOn(recipes, 'listCandidatePool');
    try {
      const res = await generate(pro.token, {
        week_start: mondayIn(6),
        preferences: { max_prep_time: 50, avoid_repeated: true },
      });
      expect(res.status).toBe(201);
      expect(whole).not.toHaveBeenCalled();
      expect(pool).toHaveBeenCalledTimes(1);
      const [, filter, request] = pool.mock.calls[0]!;
      expect(filter).toMatchObject({ maxTotalTime: 50, fits: ['vegetarian'] });
      expect([...filter.withoutAllergens!].sort()).toEqual(['dairy', 'nuts', 'peanuts', 'tree_nuts']);
      expect(request).toMatchObject({ perMealType: POOL_PER_MEAL_TYPE, perSource: POOL_PER_SOURCE });
      const served = await pool.mock.results[0]!.value;
      expect(served.length).toBeGreaterThan(0);
      for (const recipe of served) {
        expect(
          violatesProfile(recipe, { allergies: ['nuts', 'dairy'], dietaryRestrictions: ['vegetarian'] }),
        ).toEqual([]);
        expect(recipe.prepTime + recipe.cookTime).toBeLessThanOrEqual(50);
      }
    } finally {
      whole.mockRestore();
      pool.mockRestore();
    }
  });

  it('422 no_matching_recipes when nothing fits at all', async () => {
    expectProblem(
      await generate(pro.token, { week_start: mondayIn(3), preferences: { cuisines: ['martian'] } }),
      422,
      'no_matching_recipes',
    );
    expectProblem(
      await generate(pro.token, { week_start: mondayIn(3), preferences: { max_prep_time: 1 } }),
      422,
      'no_matching_recipes',
    );
  });

  it('400 for a week_start that is not a Monday or not a date; 401; 403 for Free', async () => {
    const tuesday = new Date(`${mondayIn(4)}T00:00:00Z`);
    tuesday.setUTCDate(tuesday.getUTCDate() + 1);
    const res = await generate(pro.token, { week_start: tuesday.toISOString().slice(0, 10) });
    expect(expectProblem(res, 400, 'validation_error').errors[0].field).toBe('week_start');
    expectProblem(await generate(pro.token, { week_start: '2026-02-30' }), 400, 'validation_error');
    expectProblem(await generate(pro.token, {}), 400, 'validation_error');
    expectProblem(
      await generate(pro.token, { week_start: mondayIn(4), preferences: { max_prep_time: -5 } }),
      400,
      'validation_error',
    );
    expectProblem(
      await api('POST', '/api/meal-plans/generate', { body: { week_start: mondayIn(4) } }),
      401,
      'unauthorized',
    );
    const free = await createUser(ctx);
    const denied = expectProblem(
      await generate(free.token, { week_start: mondayIn(4) }),
      403,
      'tier_required',
    );
    expect(denied.required_tier).toBe('pro');
  });

  it('the model may choose among valid weeks, and only among them', async () => {
    const user = await createUser(ctx, {
      tier: 'pro',
      profile: { allergies: ['gluten'], household_size: 1 },
    });
    fake.script((request) => {
      expect(JSON.stringify(request.body.messages)).toContain('Plan 2');
      return { text: '```json\n{"choice": 2, "reason": "more variety"}\n```' };
    });
    const before = fake.requests.length;
    const res = await generate(user.token, { week_start: mondayIn(5), preferences: { max_prep_time: 45 } });
    expect(res.status).toBe(201);
    expect(fake.requests.length).toBe(before + 1);
    expect(fake.requests.at(-1)!.body.model).toBe('planner-model');

    const viewer = { id: user.user.id, isAdmin: false };
    const weeks = candidateWeeks({
      recipes: await ctx.services.recipes.listCandidates(viewer, { maxTotalTime: 45 }),
      diet: { allergies: ['gluten'], dietaryRestrictions: [] },
      healthGoals: [],
      constraints: { maxPrepTime: 45, avoidRepeated: false },
      taste: await ctx.services.preferences.get(user.user.id),
      pantry: [],
    });
    expect(weeks.length).toBeGreaterThan(1);
    expect(res.body.slots.map((s: any) => s.recipe_id)).toEqual(weeks[1]!.slots.map((s) => s.recipe.id));

    // A failing model changes nothing: the planner's best week is written.
    fake.script({ status: 500 }, { status: 500 });
    const fallback = await generate(user.token, {
      week_start: mondayIn(5),
      replace: true,
      preferences: { max_prep_time: 45 },
    });
    expect(fallback.status).toBe(201);
    expect(fallback.body.slots.map((s: any) => s.recipe_id)).toEqual(weeks[0]!.slots.map((s) => s.recipe.id));
  });
});

describe('planner over the real starter catalog', () => {
  it('1,000 random profiles (allergies × restrictions × max_prep_time × cuisines): zero violations', async () => {
    const someone = await createUser(ctx);
    const catalog = await ctx.services.recipes.listCandidates({ id: someone.user.id, isAdmin: false }, {});
    expect(catalog.length).toBeGreaterThan(50);
    const cuisines = [...new Set(catalog.map((r) => r.cuisine))];
    fc.assert(
      fc.property(profileArb(cuisines), (profile) => checkWeeks(catalog, profile)),
      { numRuns: 1000 },
    );
  }, 180_000);
});

describe('Idempotency-Key on generation (key reserved while the model is asked)', () => {
  it('a duplicate during the first answers 409, a retry after it replays, another body is a 422', async () => {
    const user = await createUser(ctx, {
      tier: 'pro',
      profile: { allergies: ['gluten'], household_size: 1 },
    });
    const body = { week_start: mondayIn(6), preferences: { max_prep_time: 45 } };
    const send = (b: unknown = body) =>
      api('POST', '/api/meal-plans/generate', {
        token: user.token,
        body: b,
        headers: { 'idempotency-key': 'plan-week-6' },
      });
    // Earlier tests may leave scripted answers queued: consume them up to a marker of this test's.
    let drained = false;
    fake.script(() => ((drained = true), { text: 'drained' }));
    for (let i = 0; i < 20 && !drained; i += 1) {
      await fetch(`${fake.baseUrl}/chat/completions`, { method: 'POST', body: '{}' }).then((r) => r.text());
    }
    const asked = fake.requests.length;
    fake.script({ hang: true }); // the model hangs until LLM_TIMEOUT_MS; the planner's best stands
    const first = send();
    for (let i = 0; i < 400 && fake.requests.length === asked; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (fake.requests.length === asked)
      throw new Error(`the model was not asked: ${JSON.stringify(await first)}`);
    const duplicate = await send();
    expectProblem(duplicate, 409, 'idempotency_in_progress');
    expect(duplicate.headers.get('retry-after')).toBe('1');

    const created = await first;
    expect(created.status).toBe(201);
    const retry = await send();
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(created.body);
    expectProblem(await send({ ...body, replace: true }), 422, 'idempotency_key_reused');
  });
});
