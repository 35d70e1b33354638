import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.ts';
import { createUser, type TestUser } from './support/factories.ts';
import { client, type Api } from './support/http.ts';
import { ING, mondayIn } from './support/kitchen.ts';
import { startFakeLlm, type FakeLlm, type RecordedRequest } from './support/llm-fakes.ts';
import { createRecipe } from './support/recipes.ts';

/**
 * A scripted week over real HTTP: plan → shop → buy → cook through slot completion → ask the
 * assistant what to cook tonight. At the end the pantry, the cooking history and the taste weights
 * agree with what happened.
 */
let fake: FakeLlm;
let ctx: TestApp;
let api: Api;
let cook: TestUser;

beforeAll(async () => {
  fake = await startFakeLlm('openai');
  ctx = await startTestApp({ LLM_BASE_URL: fake.baseUrl, LLM_API_KEY: 'sk-test', CHAT_MODEL: 'test-chat' });
  api = client(ctx.baseUrl);
  cook = await createUser(ctx, { tier: 'pro', profile: { household_size: 2 } });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const toolOutputs = (request: RecordedRequest) =>
  (request.body.messages as { role: string; content: string }[])
    .filter((m) => m.role === 'tool')
    .map((m) => JSON.parse(m.content));

describe('a week in the kitchen', () => {
  it('keeps pantry, history and taste weights consistent from plan to plate', async () => {
    const token = cook.token;
    // Two recipes for 2: rice with eggs (chinese), pancakes (french).
    const friedRice = await createRecipe(ctx, cook, {
      title: 'Egg fried rice',
      cuisine: 'chinese',
      servings: 2,
      ingredients: [
        { ingredient_id: ING.rice, quantity: 300, unit: 'g' },
        { ingredient_id: ING.egg, quantity: 3, unit: 'piece' },
      ],
    });
    const pancakes = await createRecipe(ctx, cook, {
      title: 'Pancakes',
      cuisine: 'french',
      servings: 2,
      ingredients: [
        { ingredient_id: ING.flour, quantity: 200, unit: 'g' },
        { ingredient_id: ING.egg, quantity: 2, unit: 'piece' },
        { ingredient_id: ING.milk, quantity: 300, unit: 'ml' },
      ],
    });

    // Plan: Monday and Tuesday dinners for the household of two.
    const plan = (await api('POST', '/api/meal-plans', { token, body: { week_start: mondayIn(0) } })).body;
    const monday = (
      await api('POST', `/api/meal-plans/${plan.id}/slots`, {
        token,
        body: { day: 0, meal_type: 'dinner', recipe_id: friedRice.id },
      })
    ).body;
    const tuesday = (
      await api('POST', `/api/meal-plans/${plan.id}/slots`, {
        token,
        body: { day: 1, meal_type: 'dinner', recipe_id: pancakes.id },
      })
    ).body;

    // Shop: the list is what the plan needs (the pantry is empty); buying puts it in the pantry.
    const list = await api('POST', '/api/shopping-list/generate', { token, body: { meal_plan_id: plan.id } });
    expect(list.status).toBe(200);
    const need = Object.fromEntries(
      list.body.items.map((i: { ingredient_id: number; quantity: number; unit: string }) => [
        i.ingredient_id,
        i,
      ]),
    );
    expect(need[ING.egg]).toMatchObject({ quantity: 5, unit: 'piece' });
    for (const item of list.body.items as {
      id: string;
      ingredient_id: number;
      quantity: number;
      unit: string;
    }[]) {
      const bought = await api('POST', '/api/inventory', {
        token,
        body: { ingredient_id: item.ingredient_id, quantity: item.quantity, unit: item.unit },
      });
      expect(bought.status).toBe(201);
      await api('PUT', `/api/shopping-list/${item.id}`, { token, body: { is_checked: true } });
    }
    // One egg more than needed, as people buy them by the box.
    await api('POST', '/api/inventory', {
      token,
      body: { ingredient_id: ING.egg, quantity: 1, unit: 'piece' },
    });
    const weightsBefore = (await api('GET', '/api/me/preferences', { token })).body.cuisine_weights;

    // Cook through the plan: completing each slot is cooking it.
    const mondayDone = await api('PUT', `/api/meal-plans/${plan.id}/slots/${monday.id}`, {
      token,
      body: { is_completed: true },
    });
    expect(mondayDone.body.cooking.missing).toEqual([]);
    const tuesdayDone = await api('PUT', `/api/meal-plans/${plan.id}/slots/${tuesday.id}`, {
      token,
      body: { is_completed: true },
    });
    expect(tuesdayDone.body.cooking.missing).toEqual([]);
    // Ticking Tuesday off again (a double tap) changes nothing.
    await api('PUT', `/api/meal-plans/${plan.id}/slots/${tuesday.id}`, {
      token,
      body: { is_completed: false },
    });
    await api('PUT', `/api/meal-plans/${plan.id}/slots/${tuesday.id}`, {
      token,
      body: { is_completed: true },
    });

    // The pantry holds exactly what was bought and not used: the spare egg.
    const pantry = (await api('GET', '/api/inventory', { token })).body.items as {
      ingredient_id: number;
      quantity: number;
      unit: string;
    }[];
    expect(pantry.map((i) => [i.ingredient_id, i.quantity, i.unit])).toEqual([[ING.egg, 1, 'piece']]);

    // History: both dinners, once each, at the slots' servings.
    const history = (await api('GET', '/api/me/history', { token })).body;
    expect(history.total).toBe(2);
    expect(
      history.items.map((h: { recipe_id: string; servings: number }) => [h.recipe_id, h.servings]).sort(),
    ).toEqual(
      [
        [friedRice.id, 2],
        [pancakes.id, 2],
      ].sort(),
    );
    // Taste: both cuisines cooked once, so both gained weight.
    const weightsAfter = (await api('GET', '/api/me/preferences', { token })).body.cuisine_weights;
    expect(weightsAfter.chinese).toBeGreaterThan(weightsBefore.chinese ?? 0.5);
    expect(weightsAfter.french).toBeGreaterThan(weightsBefore.french ?? 0.5);

    // "What can I cook tonight?": the assistant reads the pantry as it now is.
    fake.script(
      { toolCalls: [{ name: 'get_pantry', arguments: {} }] },
      { text: 'You have one egg: a fried egg!' },
    );
    const chat = await api('POST', '/api/chat', { token, body: { message: 'What can I cook tonight?' } });
    expect(chat.status).toBe(200);
    const [pantryTool] = toolOutputs(fake.requests.at(-1)!);
    expect(JSON.stringify(pantryTool)).toMatch(/egg/);
    expect(JSON.stringify(pantryTool)).not.toMatch(/rice|flour|milk/);
  });
});
