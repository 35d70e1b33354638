import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import { client, type Api } from '../../../test/support/http.ts';
import { startFakeLlm, type FakeLlm, type RecordedRequest } from '../../../test/support/llm-fakes.ts';
import { createRecipe } from '../../../test/support/recipes.ts';

/**
 * search_recipes for a restricted user: the diets filter inside the search and the tool pages on,
 * so a vegan with a nut allergy finds the fitting recipe although 60 others come first by title.
 */
let fake: FakeLlm;
let ctx: TestApp;
let api: Api;
let vegan: TestUser;
let zucchiniBowl: { id: string };
let peanutNoodles: { id: string };

const toolOutputs = (request: RecordedRequest) =>
  (request.body.messages as { role: string; content: string }[])
    .filter((m) => m.role === 'tool')
    .map((m) => JSON.parse(m.content));

beforeAll(async () => {
  fake = await startFakeLlm('openai');
  ctx = await startTestApp({ LLM_BASE_URL: fake.baseUrl, LLM_API_KEY: 'sk-test', CHAT_MODEL: 'test-chat' });
  api = client(ctx.baseUrl);
  vegan = await createUser(ctx, { profile: { dietary_restrictions: ['vegan'], allergies: ['nuts'] } });
  for (let i = 0; i < 60; i++) {
    await createRecipe(ctx, null, {
      title: `Aa chicken dinner ${String(i).padStart(2, '0')}`,
      ingredients: [{ name: 'chicken breast', quantity: 200, unit: 'g' }],
    });
  }
  peanutNoodles = await createRecipe(ctx, null, {
    title: 'Peanut noodles',
    ingredients: [
      { name: 'rice noodles', quantity: 200, unit: 'g' },
      { name: 'peanuts', quantity: 50, unit: 'g' },
    ],
  });
  zucchiniBowl = await createRecipe(ctx, null, {
    title: 'Zucchini bowl',
    ingredients: [{ name: 'zucchini', quantity: 2, unit: 'piece' }],
  });
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

describe('search_recipes for a restricted user', () => {
  it('filters diets in the search and pages until it finds fitting recipes', async () => {
    fake.script(
      { toolCalls: [{ name: 'search_recipes', arguments: { limit: 5 } }] },
      { text: 'Try the zucchini bowl.' },
    );
    const res = await api('POST', '/api/chat', {
      token: vegan.token,
      body: { message: 'Find me something to cook' },
    });
    expect(res.status).toBe(200);
    const [output] = toolOutputs(fake.requests.at(-1)!);
    const ids = output.recipes.map((r: { id: string }) => r.id);
    expect(ids).toContain(zucchiniBowl.id);
    expect(ids).not.toContain(peanutNoodles.id);
    expect(ids).toHaveLength(1);
  });
});
