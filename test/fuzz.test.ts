import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.ts';
import { createUser } from './support/factories.ts';
import { pathParamWith, valueFor, type SchemaNode } from './fuzz/arbitraries.ts';
import { addStock, createPlan, ING, mondayIn } from './support/kitchen.ts';
import { seedCatalogForTest } from './support/recipes.ts';

/**
 * Requests generated from the OpenAPI document for every route, with random and edge values, with
 * and without valid tokens: no 5xx (but the contract's 503 not_configured), every error a problem
 * document. FUZZ_RUNS sets the requests per route (bounded in CI).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

interface Operation {
  method: string;
  path: string;
  parameters?: { in: string; name: string; schema?: SchemaNode }[];
  requestBody?: { content?: Record<string, { schema?: SchemaNode }> };
}

let ctx: TestApp;
const operations: Operation[] = [];
let tokens: (string | undefined)[] = [];
const realIds: string[] = [];

beforeAll(async () => {
  ctx = await startTestApp();
  const doc = (await (await fetch(`${ctx.baseUrl}/api/openapi.json`)).json()) as {
    paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
  };
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (['get', 'post', 'put', 'delete', 'patch'].includes(method))
        operations.push({ method, path, ...op });
    }
  }
  const free = await createUser(ctx);
  const pro = await createUser(ctx, { tier: 'pro' });
  const admin = await createUser(ctx, { admin: true, tier: 'family' });
  tokens = [undefined, free.token, pro.token, admin.token, 'not.a.token'];
  // Real resources, so that generated requests also reach the code behind the 404 checks.
  await seedCatalogForTest(ctx);
  const recipes = await ctx.services.recipes.search({ limit: 5, offset: 0 }, undefined);
  realIds.push(...recipes.items.map((r) => r.id));
  const stock = await addStock(ctx, free, { ingredientId: ING.flour, quantity: 500, unit: 'g' });
  realIds.push(stock.id);
  const plan = await createPlan(ctx, pro, mondayIn(1), [
    { day: 0, mealType: 'dinner', recipeId: realIds[0]! },
  ]);
  realIds.push(plan.id, ...plan.slots.map((slot) => slot.id));
});
afterAll(() => ctx?.close());

function requestFor(op: Operation) {
  const pathParams = (op.path.match(/\{[^}]+\}/g) ?? []).map(() => pathParamWith(realIds));
  const query = (op.parameters ?? []).filter((p) => p.in === 'query');
  const queryArb = fc.record(
    Object.fromEntries(
      query.map((p) => [
        p.name,
        valueFor(p.schema).map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))),
      ]),
    ),
    { requiredKeys: [] },
  );
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const bodyArb = bodySchema ? valueFor(bodySchema) : fc.option(valueFor(undefined), { nil: undefined });
  return fc.record({
    params: fc.tuple(...pathParams),
    query: queryArb,
    body: bodyArb,
    token: fc.constantFrom(...tokens),
    rawJson: fc.boolean(),
  });
}

describe('fuzzing every route from the OpenAPI document', () => {
  it('has routes to fuzz', () => {
    expect(operations.length).toBeGreaterThan(5);
  });

  it('never answers 5xx (except 503 not_configured) and answers every error as a problem document', async () => {
    const failures: string[] = [];
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(op), async (input) => {
          let i = 0;
          const path = op.path.replace(/\{[^}]+\}/g, () => String(input.params[i++]));
          const qs = new URLSearchParams(input.query as Record<string, string>).toString();
          const headers: Record<string, string> = {};
          if (input.token) headers.authorization = `Bearer ${input.token}`;
          let body: string | undefined;
          if (input.body !== undefined && op.method !== 'get' && op.method !== 'delete') {
            headers['content-type'] = 'application/json';
            body = input.rawJson ? JSON.stringify(input.body) : JSON.stringify(input.body).slice(0, -1);
          }
          const res = await fetch(`${ctx.baseUrl}${path}${qs ? `?${qs}` : ''}`, {
            method: op.method.toUpperCase(),
            headers,
            body,
          });
          const text = await res.text();
          const type = res.headers.get('content-type') ?? '';
          const label = `${op.method.toUpperCase()} ${path}?${qs} ${body?.slice(0, 200) ?? ''} → ${res.status} ${text.slice(0, 300)}`;
          if (res.status >= 500) {
            const notConfigured = res.status === 503 && /"code":"not_configured"/.test(text);
            if (!notConfigured) failures.push(label);
          }
          if (res.status >= 400) {
            const parsed = type.startsWith('application/problem+json')
              ? (JSON.parse(text) as { code?: unknown; status?: unknown; errors?: unknown })
              : undefined;
            if (!parsed || typeof parsed.code !== 'string' || parsed.status !== res.status)
              failures.push(`not a problem document: ${label}`);
            // Contract §2: a validation failure names its fields.
            else if (
              parsed.code === 'validation_error' &&
              (!Array.isArray(parsed.errors) || parsed.errors.length === 0)
            )
              failures.push(`validation_error without errors[]: ${label}`);
          }
        }),
        { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 20261122) },
      );
    }
    expect(failures.slice(0, 20)).toEqual([]);
  }, 600_000);
});
