import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser } from '../../../test/support/factories.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';

let ctx: TestApp;
let api: Api;
beforeAll(async () => {
  ctx = await startTestApp();
  api = client(ctx.baseUrl);
});
afterAll(() => ctx.close());

const signal = { cuisine: 'Italian', difficulty: 'easy', ingredientNames: ['basil', 'tomato'] };

describe('preferences', () => {
  it('starts neutral', async () => {
    const { token } = await createUser(ctx);
    const res = await api('GET', '/api/me/preferences', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      cuisine_weights: {},
      difficulty_weights: { easy: 0.5, medium: 0.5, hard: 0.5 },
      ingredient_weights: {},
    });
  });

  it('moves weights by the documented formula and resets them to neutral', async () => {
    const { user, token } = await createUser(ctx);
    await ctx.services.preferences.learnFromRating(user.id, 5, signal); // 0.5 + 0.15·0.5 = 0.575
    await ctx.services.preferences.learnFromRating(user.id, 5, signal); // 0.575 + 0.15·0.425 = 0.63875
    await ctx.services.preferences.learnFromCooking(user.id, signal); // 0.63875 + 0.05·0.36125 = 0.6568
    await ctx.services.preferences.learnFromRating(user.id, 3, signal); // no change
    let body = (await api('GET', '/api/me/preferences', { token })).body;
    expect(body.cuisine_weights.italian).toBeCloseTo(0.6568, 4);
    expect(body.difficulty_weights.easy).toBeCloseTo(0.6568, 4);
    expect(body.difficulty_weights.hard).toBe(0.5);
    // ingredients move at half the rate: 0.5 → 0.5375 → 0.5721875 → (cook, 0.025) 0.58288
    expect(body.ingredient_weights.basil).toBeCloseTo(0.5829, 4);
    await ctx.services.preferences.learnFromRating(user.id, 1, { ...signal, cuisine: 'French' });
    body = (await api('GET', '/api/me/preferences', { token })).body;
    expect(body.cuisine_weights.french).toBeCloseTo(0.425, 4);

    const reset = await api('DELETE', '/api/me/preferences', { token });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ message: expect.any(String) });
    body = (await api('GET', '/api/me/preferences', { token })).body;
    expect(body).toEqual({
      cuisine_weights: {},
      difficulty_weights: { easy: 0.5, medium: 0.5, hard: 0.5 },
      ingredient_weights: {},
    });
  });

  it('keeps weights within [0, 1] under many concurrent updates', async () => {
    const { user, token } = await createUser(ctx);
    await Promise.all(
      Array.from({ length: 40 }, () => ctx.services.preferences.learnFromRating(user.id, 5, signal)),
    );
    const w = (await api('GET', '/api/me/preferences', { token })).body.cuisine_weights.italian;
    // 40 sequentially composed steps: 1 − 0.5·0.85^40
    expect(w).toBeCloseTo(1 - 0.5 * 0.85 ** 40, 4);
    expect(w).toBeLessThanOrEqual(1);
  });

  it('requires auth', async () => {
    expectProblem(await api('GET', '/api/me/preferences'), 401, 'unauthorized');
    expectProblem(await api('DELETE', '/api/me/preferences'), 401, 'unauthorized');
  });
});
