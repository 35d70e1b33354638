import { randomBytes } from 'node:crypto';
import { startServiceProcess } from '../../test/support/processes.ts';
import { quick, registerUser, verdict, withDatabase, type Check } from '../faults/support.ts';

/**
 * Attack: a client (or a flaky network) retries writes. Without an Idempotency-Key a retry is a
 * new request (it applies again, as documented); with one, sequential retries and a burst of
 * concurrent duplicates of cooking, slot completion and pantry adds must apply exactly once and
 * all answer the first response; reusing a key for another body is a 422.
 */
const BURST = quick ? 8 : 24;

interface Answer {
  status: number;
  body: Record<string, unknown>;
  replayed: boolean;
}

const checks = await withDatabase(async (databaseUrl) => {
  const service = await startServiceProcess({
    DATABASE_URL: databaseUrl,
    DATA_DIR: `/tmp/mise-abuse-${process.pid}`,
    NODE_ENV: 'test',
    RATE_LIMIT_MAX: '100000000',
    AUTH_RATE_LIMIT_MAX: '100000',
    RUN_WORKERS: 'false',
    SEED_CATALOG: 'true',
  });
  const checks: Check[] = [];
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });
  try {
    const base = service.url;
    const { token } = await registerUser(base, 'retry');
    const call = async (method: string, path: string, body?: unknown, key?: string): Promise<Answer> => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (key) headers['idempotency-key'] = key;
      const res = await fetch(`${base}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      return {
        status: res.status,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        replayed: res.headers.get('idempotent-replayed') === 'true',
      };
    };

    // A catalog recipe and stock of its first ingredient, in the recipe's own unit.
    const list = await call('GET', '/api/recipes?limit=20');
    let recipe:
      | { id: string; servings: number; line: { ingredient_id: number; quantity: number; unit: string } }
      | undefined;
    let stock = 0;
    for (const item of list.body.items as { id: string }[]) {
      const detail = (await call('GET', `/api/recipes/${item.id}`)).body as {
        servings: number;
        ingredients: { ingredient_id: number; quantity: number; unit: string }[];
      };
      const line = detail.ingredients[0];
      if (!line || line.quantity <= 0) continue;
      stock = line.quantity * 100;
      const added = await call('POST', '/api/inventory', {
        ingredient_id: line.ingredient_id,
        quantity: stock,
        unit: line.unit,
        location: 'pantry',
      });
      if (added.status !== 201) continue;
      recipe = { id: item.id, servings: detail.servings, line };
      break;
    }
    if (!recipe) throw new Error('no catalog recipe with a stockable first ingredient');
    const left = async () => {
      const items = (await call('GET', '/api/inventory')).body.items as {
        ingredient_id: number;
        quantity: number;
      }[];
      return items
        .filter((i) => i.ingredient_id === recipe.line.ingredient_id)
        .reduce((t, i) => t + i.quantity, 0);
    };
    const history = async () => (await call('GET', '/api/me/history')).body.total as number;
    const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(1e-6, Math.abs(b) * 1e-6);
    const cook = (key?: string, servings = recipe.servings) =>
      call('POST', `/api/recipes/${recipe.id}/cook`, { servings }, key);
    const per = recipe.line.quantity;

    // 1. Without a key: a retry is a second cooking (documented behaviour, shown for contrast).
    await cook();
    await cook();
    check(
      'retry without Idempotency-Key applies again (documented)',
      near(await left(), stock - 2 * per) && (await history()) === 2,
      `left ${await left()} of ${stock}, history ${await history()}`,
    );

    // 2. Sequential retries with one key.
    const key = `cook-${randomBytes(4).toString('hex')}`;
    const first = await cook(key);
    const retries = [];
    for (let i = 0; i < 4; i++) retries.push(await cook(key));
    check(
      'sequential retries with one key deduct once and replay the first answer',
      first.status === 200 &&
        retries.every((r) => r.status === 200 && r.replayed && r.body.cooked_at === first.body.cooked_at) &&
        near(await left(), stock - 3 * per) &&
        (await history()) === 3,
      `statuses ${[first, ...retries].map((r) => r.status).join(',')}, left ${await left()}, history ${await history()}`,
    );

    // 3. A burst of concurrent duplicates.
    const burstKey = `burst-${randomBytes(4).toString('hex')}`;
    const burst = await Promise.all(Array.from({ length: BURST }, () => cook(burstKey)));
    const cookedAt = new Set(burst.map((b) => b.body.cooked_at));
    check(
      `${BURST} concurrent duplicates of one cook apply once`,
      burst.every((b) => b.status === 200) &&
        cookedAt.size === 1 &&
        near(await left(), stock - 4 * per) &&
        (await history()) === 4,
      `statuses ${[...new Set(burst.map((b) => b.status))].join(',')}, distinct cooked_at ${cookedAt.size}, left ${await left()}, history ${await history()}`,
    );

    // 4. The key reused for another body.
    const reused = await cook(burstKey, recipe.servings * 2);
    check(
      'the same key with another body is refused (422 idempotency_key_reused)',
      reused.status === 422 &&
        reused.body.code === 'idempotency_key_reused' &&
        near(await left(), stock - 4 * per),
      `${reused.status} ${String(reused.body.code)}`,
    );

    // 5. Slot completion: concurrent duplicates.
    const monday = new Date();
    monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7) + 14);
    const plan = await call('POST', '/api/meal-plans', { week_start: monday.toISOString().slice(0, 10) });
    const slot = await call('POST', `/api/meal-plans/${String(plan.body.id)}/slots`, {
      day: 2,
      meal_type: 'dinner',
      recipe_id: recipe.id,
    });
    const slotKey = `slot-${randomBytes(4).toString('hex')}`;
    const completions = await Promise.all(
      Array.from({ length: BURST }, () =>
        call(
          'PUT',
          `/api/meal-plans/${String(plan.body.id)}/slots/${String(slot.body.id)}`,
          { is_completed: true },
          slotKey,
        ),
      ),
    );
    check(
      'concurrent duplicate slot completions answer alike, all but one replayed',
      completions.every((c) => c.status === 200 && c.body.is_completed === true) &&
        completions.filter((c) => !c.replayed).length === 1,
      `statuses ${[...new Set(completions.map((c) => c.status))].join(',')}, applied ${completions.filter((c) => !c.replayed).length}`,
    );

    // 6. Concurrent duplicate pantry adds create one item.
    const addKey = `add-${randomBytes(4).toString('hex')}`;
    const adds = await Promise.all(
      Array.from({ length: BURST }, () =>
        call(
          'POST',
          '/api/inventory',
          {
            ingredient_id: recipe.line.ingredient_id,
            quantity: 7,
            unit: recipe.line.unit,
            location: 'fridge',
          },
          addKey,
        ),
      ),
    );
    const fridge = ((await call('GET', '/api/inventory?location=fridge')).body.items as unknown[]).length;
    check(
      'concurrent duplicate pantry adds create one item',
      adds.every((a) => a.status === 201 && a.body.id === adds[0]!.body.id) && fridge === 1,
      `statuses ${[...new Set(adds.map((a) => a.status))].join(',')}, fridge items ${fridge}`,
    );
  } finally {
    await service.stop();
  }
  return checks;
});

verdict('retry-double-apply', checks);
