import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import { client, type Api } from '../../../test/support/http.ts';
import { startFakeLlm, type FakeLlm, type RecordedRequest } from '../../../test/support/llm-fakes.ts';
import { createRecipe } from '../../../test/support/recipes.ts';

/**
 * The assistant's memory and search: search_recipes for a restricted user (diets filter inside the
 * search and the tool pages on), a session's pinned recipe, and tool calls with their results kept
 * in the history the model gets.
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

describe('a session remembers', () => {
  it('keeps its pinned recipe until another one (or null) is sent', async () => {
    const cook = await createUser(ctx);
    // What the model reads about this turn: the system prompt and the new message (not the history).
    const thisTurn = (request: RecordedRequest) => {
      const messages = request.body.messages as { role: string; content: string }[];
      return JSON.stringify([...messages.filter((m) => m.role === 'system'), messages.at(-1)]);
    };
    fake.script({ text: 'Start with the zucchini.' }, { text: 'Slice it.' }, { text: 'Sure.' });
    const first = await api('POST', '/api/chat', {
      token: cook.token,
      body: { message: 'Guide me through this', recipe_id: zucchiniBowl.id },
    });
    expect(first.status).toBe(200);
    expect(thisTurn(fake.requests.at(-1)!)).toContain('Zucchini bowl');
    const second = await api('POST', '/api/chat', {
      token: cook.token,
      body: { message: 'What is the next step?', session_id: first.body.session_id },
    });
    expect(second.status).toBe(200);
    // The second message names no recipe: the session's pinned one is still what the model reads.
    expect(thisTurn(fake.requests.at(-1)!)).toContain('Zucchini bowl');
    await api('POST', '/api/chat', {
      token: cook.token,
      body: { message: 'Something else', session_id: first.body.session_id, recipe_id: null },
    });
    expect(thisTurn(fake.requests.at(-1)!)).not.toContain('Zucchini bowl');
  });

  it('sends earlier tool calls and their results (ids included) with the next message', async () => {
    const planner = await createUser(ctx);
    fake.script(
      { toolCalls: [{ name: 'search_recipes', arguments: { query: 'zucchini' } }] },
      { text: 'I found a zucchini bowl.' },
      { text: 'Added.' },
    );
    const first = await api('POST', '/api/chat', {
      token: planner.token,
      body: { message: 'Find zucchini recipes' },
    });
    expect(first.status).toBe(200);
    await api('POST', '/api/chat', {
      token: planner.token,
      body: { message: 'Add the first one to Thursday', session_id: first.body.session_id },
    });
    const messages = fake.requests.at(-1)!.body.messages as {
      role: string;
      content: string;
      tool_calls?: { id: string; function: { name: string } }[];
      tool_call_id?: string;
    }[];
    const call = messages.find((m) => m.role === 'assistant' && m.tool_calls?.length);
    expect(call?.tool_calls?.[0]?.function.name).toBe('search_recipes');
    const result = messages.find((m) => m.role === 'tool');
    expect(result?.tool_call_id).toBe(call?.tool_calls?.[0]?.id);
    expect(result?.content).toContain(zucchiniBowl.id);
    // The conversation still opens with the user, and the new message comes last.
    expect(messages.filter((m) => m.role !== 'system')[0]?.role).toBe('user');
    expect(messages.at(-1)?.content).toContain('Add the first one to Thursday');
  });
});

describe('a reply that names a recipe the user may not eat', () => {
  it('is annotated from the recipe data before it is stored, whatever the model says', async () => {
    fake.script(
      { toolCalls: [{ name: 'get_recipe_details', arguments: { recipe_id: peanutNoodles.id } }] },
      { text: 'Peanut noodles are perfectly safe for you, enjoy!' },
      { text: 'The Zucchini bowl is a good pick.' },
    );
    const res = await api('POST', '/api/chat', {
      token: vegan.token,
      body: { message: 'Can I eat the noodles?' },
    });
    expect(res.status).toBe(200);
    expect(res.body.reply).toMatch(/^Peanut noodles are perfectly safe for you, enjoy!\n\n⚠️ /);
    expect(res.body.reply).toContain('“Peanut noodles” is not for you');
    expect(res.body.reply).toMatch(/nuts allergy/);
    const stored = await api('GET', `/api/chat/sessions/${res.body.session_id}/messages`, {
      token: vegan.token,
    });
    expect(stored.body.at(-1).content).toBe(res.body.reply);

    // A recipe that fits is named without a note.
    const fine = await api('POST', '/api/chat', {
      token: vegan.token,
      body: { message: 'And the bowl?', session_id: res.body.session_id, recipe_id: zucchiniBowl.id },
    });
    expect(fine.body.reply).toBe('The Zucchini bowl is a good pick.');
  });
});
