import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.ts';
import { createUser, type TestUser } from './support/factories.ts';
import { client, expectProblem, type Api } from './support/http.ts';
import { addStock, createPlan, ING, mondayIn } from './support/kitchen.ts';
import { createRecipe } from './support/recipes.ts';

/**
 * Multi-step writes commit as one transaction (platform/db/unit-of-work.ts) and retries carrying
 * an Idempotency-Key apply once (platform/idempotency).
 */
let ctx: TestApp;
let api: Api;
beforeAll(async () => {
  ctx = await startTestApp();
  api = client(ctx.baseUrl);
});
afterAll(() => ctx.close());

async function riceRecipeAndStock(user: TestUser) {
  const recipe = await createRecipe(ctx, null, {
    servings: 2,
    ingredients: [{ ingredient_id: ING.rice, quantity: 100, unit: 'g' }],
  });
  await addStock(ctx, user, { ingredientId: ING.rice, quantity: 1000, unit: 'g' });
  return recipe;
}

async function grams(user: TestUser): Promise<number> {
  const items = (await api('GET', '/api/inventory', { token: user.token })).body.items as {
    quantity: number;
    unit: string;
  }[];
  return items.reduce((t, i) => t + (i.unit === 'kg' ? i.quantity * 1000 : i.quantity), 0);
}

const historyTotal = async (user: TestUser): Promise<number> =>
  (await api('GET', '/api/me/history', { token: user.token })).body.total as number;

describe('cooking is one transaction', () => {
  it('a failure after the deduction (history insert) leaves the pantry unchanged', async () => {
    const user = await createUser(ctx);
    const recipe = await riceRecipeAndStock(user);
    // Test-only failure, installed from the test: the history insert fails for this user.
    const db = ctx.database.db;
    await sql`
      create or replace function test_fail_history() returns trigger language plpgsql as $$
      begin
        if new.user_id = ${sql.lit(user.user.id)}::uuid then raise exception 'injected history failure'; end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger test_fail_history before insert on cooking_history
      for each row execute function test_fail_history()`.execute(db);
    try {
      const res = await api('POST', `/api/recipes/${recipe.id}/cook`, { token: user.token, body: {} });
      expectProblem(res, 500, 'internal_error');
      expect(await grams(user)).toBeCloseTo(1000, 6);
      expect(await historyTotal(user)).toBe(0);
      const prefs = (await api('GET', '/api/me/preferences', { token: user.token })).body;
      expect(Object.values(prefs.cuisine_weights as Record<string, number>).every((w) => w === 0.5)).toBe(
        true,
      );
    } finally {
      await sql`drop trigger test_fail_history on cooking_history`.execute(db);
      await sql`drop function test_fail_history()`.execute(db);
    }
    // Once the fault is gone the same request applies, once.
    const ok = await api('POST', `/api/recipes/${recipe.id}/cook`, { token: user.token, body: {} });
    expect(ok.status).toBe(200);
    expect(await grams(user)).toBeCloseTo(900, 6);
    expect(await historyTotal(user)).toBe(1);
  });
});

describe('Idempotency-Key', () => {
  it('a retried cook with the same key deducts once and answers the stored response', async () => {
    const user = await createUser(ctx);
    const recipe = await riceRecipeAndStock(user);
    const send = () =>
      api('POST', `/api/recipes/${recipe.id}/cook`, {
        token: user.token,
        body: { servings: 2 },
        headers: { 'idempotency-key': 'cook-once-1' },
      });
    const first = await send();
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await send();
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await grams(user)).toBeCloseTo(900, 6);
    expect(await historyTotal(user)).toBe(1);

    // Without a key a retry is a new cooking (the client did not ask for deduplication).
    await api('POST', `/api/recipes/${recipe.id}/cook`, { token: user.token, body: { servings: 2 } });
    expect(await grams(user)).toBeCloseTo(800, 6);
  });

  it('concurrent duplicates apply once and all get the same answer', async () => {
    const user = await createUser(ctx);
    const recipe = await riceRecipeAndStock(user);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        api('POST', `/api/recipes/${recipe.id}/cook`, {
          token: user.token,
          body: { servings: 2 },
          headers: { 'idempotency-key': 'cook-burst' },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.body.cooked_at)).size).toBe(1);
    expect(await grams(user)).toBeCloseTo(900, 6);
    expect(await historyTotal(user)).toBe(1);
  });

  it('the same key with another body is a 422; keys are per user; a malformed key is a 400', async () => {
    const user = await createUser(ctx);
    const other = await createUser(ctx);
    const recipe = await riceRecipeAndStock(user);
    await addStock(ctx, other, { ingredientId: ING.rice, quantity: 1000, unit: 'g' });
    const cook = (who: TestUser, servings: number, key = 'shared-key') =>
      api('POST', `/api/recipes/${recipe.id}/cook`, {
        token: who.token,
        body: { servings },
        headers: { 'idempotency-key': key },
      });
    expect((await cook(user, 2)).status).toBe(200);
    expectProblem(await cook(user, 4), 422, 'idempotency_key_reused');
    expect((await cook(other, 2)).status).toBe(200);
    expect(await grams(other)).toBeCloseTo(900, 6);
    expectProblem(await cook(user, 2, 'bad key with spaces'), 400, 'validation_error');
    expect(await grams(user)).toBeCloseTo(900, 6);
  });

  it('an expired key applies again', async () => {
    const user = await createUser(ctx);
    const recipe = await riceRecipeAndStock(user);
    const send = () =>
      api('POST', `/api/recipes/${recipe.id}/cook`, {
        token: user.token,
        body: {},
        headers: { 'idempotency-key': 'kept-24h' },
      });
    await send();
    await sql`update idempotency_keys set expires_at = now() - interval '1 second'
      where user_id = ${user.user.id}`.execute(ctx.database.db);
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await grams(user)).toBeCloseTo(800, 6);
  });

  it('a failed request stores nothing: its retry runs again', async () => {
    const user = await createUser(ctx);
    const missing = '00000000-0000-4000-8000-000000000000';
    const res = await api('POST', `/api/recipes/${missing}/cook`, {
      token: user.token,
      body: {},
      headers: { 'idempotency-key': 'k-404' },
    });
    expectProblem(res, 404, 'not_found');
    const row = await sql<{ n: number }>`select count(*)::int as n from idempotency_keys
      where user_id = ${user.user.id}`.execute(ctx.database.db);
    expect(row.rows[0]!.n).toBe(0);
  });

  it('slot completion and pantry/shopping adds replay instead of applying twice', async () => {
    const user = await createUser(ctx);
    const recipe = await createRecipe(ctx, null, {});
    const plan = await createPlan(ctx, user, mondayIn(1), [
      { day: 0, mealType: 'dinner', recipeId: recipe.id },
    ]);
    const slotId = plan.slots[0]!.id;
    const put = () =>
      api('PUT', `/api/meal-plans/${plan.id}/slots/${slotId}`, {
        token: user.token,
        body: { is_completed: true },
        headers: { 'idempotency-key': 'slot-done' },
      });
    const first = await put();
    expect(first.status).toBe(200);
    expect(first.body.is_completed).toBe(true);
    const again = await put();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);

    const add = () =>
      api('POST', '/api/inventory', {
        token: user.token,
        body: { ingredient_id: ING.flour, quantity: 500, unit: 'g', location: 'pantry' },
        headers: { 'idempotency-key': 'pantry-add' },
      });
    const created = await add();
    expect(created.status).toBe(201);
    const replayed = await add();
    expect(replayed.status).toBe(201);
    expect(replayed.body.id).toBe(created.body.id);
    const items = (await api('GET', '/api/inventory', { token: user.token })).body.items;
    expect(items).toHaveLength(1);
    expect(items[0].quantity).toBe(500);

    const shop = () =>
      api('POST', '/api/shopping-list', {
        token: user.token,
        body: { ingredient_id: ING.milk, quantity: 1, unit: 'l' },
        headers: { 'idempotency-key': 'shop-add' },
      });
    await shop();
    await shop();
    const list = (await api('GET', '/api/shopping-list', { token: user.token })).body.items;
    expect(list).toHaveLength(1);
    expect(list[0].quantity).toBe(1);
  });

  it('is documented as a header parameter in the OpenAPI document', async () => {
    const doc = (await api('GET', '/api/openapi.json')).body;
    const params = doc.paths['/api/recipes/{id}/cook'].post.parameters as { in: string; name: string }[];
    expect(params).toContainEqual(expect.objectContaining({ in: 'header', name: 'idempotency-key' }));
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('statement timeout (PostgreSQL)', () => {
  let slow: TestApp;
  beforeAll(async () => {
    slow = await startTestApp({ DB_STATEMENT_TIMEOUT_MS: '300' });
  });
  afterAll(() => slow.close());

  it('a statement cancelled by the timeout answers 503 database_timeout and changes nothing', async () => {
    const user = await createUser(slow);
    await addStock(slow, user, { ingredientId: ING.rice, quantity: 1000, unit: 'g' });
    const recipe = await createRecipe(slow, null, {
      servings: 2,
      ingredients: [{ ingredient_id: ING.rice, quantity: 100, unit: 'g' }],
    });
    // Another session holds the user's stock rows: the cook's SELECT … FOR UPDATE waits past 300 ms.
    const holder = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query(
        `select id from ${slow.database.schema}.inventory_items where user_id = $1 for update`,
        [user.user.id],
      );
      const res = await client(slow.baseUrl)('POST', `/api/recipes/${recipe.id}/cook`, {
        token: user.token,
        body: {},
        headers: { 'idempotency-key': 'slow-cook' },
      });
      expectProblem(res, 503, 'database_timeout');
      expect(res.headers.get('retry-after')).toBe('5');
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    const slowApi = client(slow.baseUrl);
    const items = (await slowApi('GET', '/api/inventory', { token: user.token })).body.items;
    expect(items[0].quantity).toBe(1000);
    // The key was not kept: the retry applies now.
    const retry = await slowApi('POST', `/api/recipes/${recipe.id}/cook`, {
      token: user.token,
      body: {},
      headers: { 'idempotency-key': 'slow-cook' },
    });
    expect(retry.status).toBe(200);
  });
});
