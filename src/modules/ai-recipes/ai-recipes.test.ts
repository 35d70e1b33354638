import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';
import { addStock, dayFromToday } from '../../../test/support/kitchen.ts';
import {
  lastUserText,
  startFakeLlm,
  systemText,
  type FakeLlm,
  type FakeStep,
  type RecordedRequest,
} from '../../../test/support/llm-fakes.ts';
import { ensureIngredients } from '../../../test/support/recipes.ts';
import { toGrams } from '../ingredients/units.ts';

/**
 * POST /api/recipes/generate against a loopback OpenAI-compatible server. Drafts and the critic's
 * judgements are scripted separately (the critic is recognised by its system prompt).
 */
let fake: FakeLlm;
let ctx: TestApp;
let api: Api;
let cook: TestUser;
let drafts: FakeStep[];
let judgements: FakeStep[];

const isJudge = (r: RecordedRequest) => systemText(r).includes('food critic');
const draftRequests = () => fake.requests.filter((r) => !isJudge(r));
const judgeRequests = () => fake.requests.filter(isJudge);
const judge = (score: number, reason = 'Tasty and well balanced.'): FakeStep => ({
  text: JSON.stringify({ palatability: score, reason }),
});
const asDraft = (draft: object): FakeStep => ({ text: JSON.stringify(draft) });

const balanced = {
  name: 'Lentil and Tofu Stew',
  description: 'A hearty stew.',
  cuisine: 'indian',
  difficulty: 'easy',
  prep_minutes: 10,
  cook_minutes: 30,
  servings: 2,
  ingredients: [
    { name: 'lentils', quantity: 150, unit: 'g' },
    { name: 'tofu', quantity: 200, unit: 'g' },
    { name: 'spinach', quantity: 200, unit: 'g' },
    { name: 'olive oil', quantity: 2, unit: 'tbsp' },
    { name: 'onion', quantity: 1, unit: 'piece' },
  ],
  steps: [
    'Soften the onion in the oil.',
    'Add lentils and water; simmer 25 minutes.',
    'Stir in tofu and spinach.',
  ],
  tags: ['Vegan', 'high-protein'],
};
const withPeanuts = {
  ...balanced,
  name: 'Peanut Stew',
  ingredients: [...balanced.ingredients, { name: 'peanut butter', quantity: 3, unit: 'tbsp' }],
};
const withSatay = {
  ...balanced,
  name: 'Satay Stew',
  ingredients: [...balanced.ingredients, { name: 'satay sauce', quantity: 50, unit: 'ml' }],
};
const slow = { ...balanced, name: 'Slow Stew', cook_minutes: 120 };

const generate = (body: unknown, token = cook.token) => api('POST', '/api/recipes/generate', { token, body });

beforeAll(async () => {
  fake = await startFakeLlm('openai');
  fake.fallback = (request) => (isJudge(request) ? judgements.shift() : drafts.shift()) ?? { status: 500 };
  ctx = await startTestApp({
    LLM_BASE_URL: fake.baseUrl,
    RECIPE_MODEL: 'recipe-test',
    LLM_TIMEOUT_MS: '500',
  });
  api = client(ctx.baseUrl);
  await ensureIngredients(ctx);
  cook = await createUser(ctx, {
    tier: 'pro',
    profile: { allergies: ['peanuts'], dietary_restrictions: ['vegetarian'], household_size: 2 },
  });
});

beforeEach(() => {
  drafts = [];
  judgements = [];
  fake.requests.length = 0;
});

afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

describe('POST /api/recipes/generate', () => {
  it('answers the AI recipe draft; macros come from the reference data; an excellent first draft stops the loop', async () => {
    drafts.push(asDraft(balanced));
    judgements.push(judge(10));
    const res = await generate({
      prompt: 'A warming vegan dinner',
      use_pantry: false,
      cuisine_hint: 'Indian',
      max_minutes: 45,
    });
    expect(res.status).toBe(200);
    const body = res.body;
    expect(Object.keys(body).sort()).toEqual(
      [
        'name',
        'description',
        'cuisine',
        'difficulty',
        'prep_minutes',
        'cook_minutes',
        'servings',
        'ingredients',
        'steps',
        'macros_per_serving',
        'tags',
        'score',
      ].sort(),
    );
    expect(body).toMatchObject({
      name: 'Lentil and Tofu Stew',
      description: 'A hearty stew.',
      cuisine: 'indian',
      difficulty: 'easy',
      prep_minutes: 10,
      cook_minutes: 30,
      servings: 2,
      steps: balanced.steps,
      tags: ['vegan', 'high-protein'],
    });
    expect(body.ingredients[0]).toEqual({ name: 'lentils', quantity: 150, unit: 'g', is_pantry_item: false });

    let kcal = 0;
    let protein = 0;
    for (const line of balanced.ingredients) {
      const info = (await ctx.services.ingredients.resolveName(line.name))!;
      const grams = toGrams(line.quantity, line.unit, info)!;
      kcal += (info.nutrition.kcal * grams) / 100;
      protein += (info.nutrition.protein * grams) / 100;
    }
    expect(body.macros_per_serving.calories).toBe(Math.round(kcal / 2));
    expect(body.macros_per_serving.protein_g).toBeCloseTo(protein / 2, 0);
    expect(Object.keys(body.macros_per_serving).sort()).toEqual([
      'calories',
      'carbs_g',
      'fat_g',
      'fiber_g',
      'protein_g',
    ]);

    expect(body.score).toEqual({
      overall: expect.any(Number),
      palatability: 1,
      nutrition_balance: expect.any(Number),
      preference_match: expect.any(Number),
      palatability_reason: 'Tasty and well balanced.',
      iterations: 1,
    });
    expect(body.score.overall).toBeGreaterThanOrEqual(0.8);
    expect(body.score.overall).toBeCloseTo(
      0.4 * 1 + 0.3 * body.score.nutrition_balance + 0.3 * body.score.preference_match,
      2,
    );
    expect(draftRequests()).toHaveLength(1);
    expect(judgeRequests()).toHaveLength(1);
    const prompt = lastUserText(draftRequests()[0]!);
    expect(prompt).toContain('A warming vegan dinner');
    expect(prompt).toContain('peanuts');
    expect(prompt).toContain('at most 45');
    expect(draftRequests()[0]!.body.model).toBe('recipe-test');
    const usage = await ctx.services.llmUsage.list(cook.user.id);
    expect(usage.find((u) => u.purpose === 'recipe')).toMatchObject({ model: 'recipe-test', calls: 2 });
  });

  it('refines an allergen draft (never scored by the critic) into a clean one', async () => {
    drafts.push(asDraft(withPeanuts), asDraft(balanced));
    judgements.push(judge(9));
    const res = await generate({ prompt: 'Something with a nutty sauce' });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Lentil and Tofu Stew');
    expect(res.body.score.iterations).toBe(2);
    expect(judgeRequests()).toHaveLength(1);
    const refine = lastUserText(draftRequests()[1]!);
    expect(refine).toMatch(/peanut/);
    expect(refine).toContain('Peanut Stew');
  });

  it('reads allergens of names the reference table does not know (satay sauce)', async () => {
    drafts.push(asDraft(withSatay), asDraft(withSatay), asDraft(withSatay));
    const res = await generate({ prompt: 'Satay' });
    expectProblem(res, 422, 'no_matching_recipes');
    expect(draftRequests()).toHaveLength(3);
    expect(judgeRequests()).toHaveLength(0);
  });

  it('refines a draft over max_minutes; 3 passes without a clean draft is 422', async () => {
    drafts.push(asDraft(slow), asDraft(balanced));
    judgements.push(judge(9));
    const ok = await generate({ prompt: 'stew', max_minutes: 60 });
    expect(ok.body.cook_minutes + ok.body.prep_minutes).toBeLessThanOrEqual(60);
    expect(ok.body.score.iterations).toBe(2);
    expect(lastUserText(draftRequests()[1]!)).toMatch(/takes 130 minutes; the limit is 60/);

    drafts.push(asDraft(slow), asDraft(slow), asDraft(withPeanuts));
    expectProblem(await generate({ prompt: 'stew', max_minutes: 60 }), 422, 'no_matching_recipes');
  });

  it('runs at most 3 passes and returns the best of them, iterations honest', async () => {
    drafts.push(
      asDraft({ ...balanced, name: 'A' }),
      asDraft({ ...balanced, name: 'B' }),
      asDraft({ ...balanced, name: 'C' }),
    );
    judgements.push(judge(3, 'Bland.'), judge(6, 'Better.'), judge(4, 'Meh.'));
    const res = await generate({ prompt: 'stew' });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('B');
    expect(res.body.score).toMatchObject({
      iterations: 3,
      palatability: 0.6,
      palatability_reason: 'Better.',
    });
    expect(draftRequests()).toHaveLength(3);
    expect(lastUserText(draftRequests()[2]!)).toContain('Better.');
  });

  it('accepts fenced JSON and recovers from invalid JSON with one retry', async () => {
    drafts.push(
      { text: 'Here you go:\n```json\n' + JSON.stringify({ ...balanced, prep_minutes: 'ten' }) + '\n```' },
      { text: '```json\n' + JSON.stringify(balanced).replace(/}$/, ',}') + '\n```' },
    );
    judgements.push({ text: "{'palatability': 9, 'reason': 'Good.',}" });
    const res = await generate({ prompt: 'stew' });
    expect(res.status).toBe(200);
    expect(res.body.prep_minutes).toBe(10);
    expect(res.body.score.iterations).toBe(1);
    expect(JSON.stringify(draftRequests()[1]!.body.messages)).toContain('prep_minutes');
  });

  it('use_pantry prefers pantry items (expiring first) and marks them', async () => {
    const user = await createUser(ctx, { tier: 'family', profile: { household_size: 1 } });
    const lentils = (await ctx.services.ingredients.resolveName('lentils'))!;
    const spinach = (await ctx.services.ingredients.resolveName('spinach'))!;
    await addStock(ctx, user, {
      ingredientId: lentils.id,
      quantity: 500,
      unit: 'g',
      expiryDate: dayFromToday(1),
    });
    await addStock(ctx, user, {
      ingredientId: spinach.id,
      quantity: 100,
      unit: 'g',
      expiryDate: dayFromToday(30),
    });
    drafts.push(asDraft(balanced));
    judgements.push(judge(9));
    const res = await generate({ prompt: 'use my pantry', use_pantry: true }, user.token);
    expect(res.status).toBe(200);
    const flags = Object.fromEntries(res.body.ingredients.map((i: any) => [i.name, i.is_pantry_item]));
    expect(flags).toEqual({ lentils: true, tofu: false, spinach: true, 'olive oil': false, onion: false });
    expect(lastUserText(draftRequests()[0]!)).toMatch(
      /lentils \(500 g, expiring soon: use first\)[\s\S]*spinach/,
    );
  });

  it('upstream failures: 504 on a hang, 502 on a 500; a failure after a clean draft returns that draft', async () => {
    drafts.push({ hang: true });
    expectProblem(await generate({ prompt: 'stew' }), 504, 'upstream_timeout');
    drafts.push({ status: 500 });
    expectProblem(await generate({ prompt: 'stew' }), 502, 'upstream_error');

    drafts.push(asDraft(balanced), { status: 503 });
    judgements.push(judge(2, 'Dull.'));
    const res = await generate({ prompt: 'stew' });
    expect(res.status).toBe(200);
    expect(res.body.score).toMatchObject({ iterations: 1, palatability: 0.2 });
  });

  it('400 for a bad body, 401 without a token, 403 for Free', async () => {
    expectProblem(await generate({ prompt: '  ' }), 400, 'validation_error');
    expectProblem(await generate({ prompt: 'x'.repeat(2001) }), 400, 'validation_error');
    expectProblem(await generate({ prompt: 'stew', max_minutes: 0 }), 400, 'validation_error');
    expectProblem(await generate({ prompt: 'stew', use_pantry: 'yes' }), 400, 'validation_error');
    expectProblem(
      await api('POST', '/api/recipes/generate', { body: { prompt: 'stew' } }),
      401,
      'unauthorized',
    );
    const free = await createUser(ctx);
    expectProblem(await generate({ prompt: 'stew' }, free.token), 403, 'tier_required');
    expect(fake.requests).toHaveLength(0);
  });

  it('property: a draft with a violation is never returned while a clean one exists', async () => {
    const kinds = fc.array(fc.record({ clean: fc.boolean(), score: fc.integer({ min: 0, max: 10 }) }), {
      minLength: 3,
      maxLength: 3,
    });
    await fc.assert(
      fc.asyncProperty(kinds, async (passes) => {
        drafts = passes.map((p, i) =>
          asDraft(p.clean ? { ...balanced, name: `clean ${i}` } : { ...withPeanuts, name: `unsafe ${i}` }),
        );
        judgements = passes.filter((p) => p.clean).map((p) => judge(p.score));
        const res = await generate({ prompt: 'anything' });
        if (!passes.some((p) => p.clean)) {
          expect(res.status).toBe(422);
          return;
        }
        expect(res.status).toBe(200);
        expect(res.body.name).toMatch(/^clean/);
        expect(res.body.ingredients.some((i: any) => i.name === 'peanut butter')).toBe(false);
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});

describe('without a model', () => {
  it('answers 503 not_configured naming the setting', async () => {
    const bare = await startTestApp();
    try {
      const user = await createUser(bare, { tier: 'pro' });
      const res = await client(bare.baseUrl)('POST', '/api/recipes/generate', {
        token: user.token,
        body: { prompt: 'stew' },
      });
      expect(expectProblem(res, 503, 'not_configured').detail).toMatch(/RECIPE_MODEL/);
    } finally {
      await bare.close();
    }
  });
});
