import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';
import { seedIngredientsForTest } from '../../../test/support/ingredients.ts';
import { IngredientsRepository } from './repository.ts';
import { INGREDIENTS } from './seed/ingredients.ts';
import { IngredientsService } from './service.ts';

let ctx: TestApp;
let api: Api;
beforeAll(async () => {
  ctx = await startTestApp();
  api = client(ctx.baseUrl);
  await seedIngredientsForTest(ctx);
});
afterAll(() => ctx.close());

describe('ingredient table and seeding', () => {
  it('holds every seed ingredient with its fields, and re-seeding changes nothing', async () => {
    const count = async () =>
      Number(
        (await sql<{ n: number }>`select count(*)::int as n from ingredients`.execute(ctx.database.db))
          .rows[0]!.n,
      );
    expect(await count()).toBe(INGREDIENTS.length);
    expect(await ctx.services.ingredients.seedIngredients()).toBe(INGREDIENTS.length);
    expect(await count()).toBe(INGREDIENTS.length);

    const garlic = await ctx.services.ingredients.get(1);
    expect(garlic).toMatchObject({
      id: 1,
      name: 'garlic',
      category: 'produce',
      defaultUnit: 'g',
      nutrition: { kcal: 149, protein: 6.36, carbs: 33.06, fat: 0.5, fiber: 2.1 },
      allergens: [],
      diet: [],
      density: 0.57,
      pieceGrams: 40,
      measures: { clove: 3, bulb: 40 },
    });
    expect(garlic!.aliases).toContain('garlic cloves');
  });

  it('repairs a changed row on the next seeding (upsert by id)', async () => {
    await sql`update ingredients set kcal = 1, name = 'garlic (edited)' where id = 1`.execute(
      ctx.database.db,
    );
    await ctx.services.ingredients.seedIngredients();
    const garlic = await ctx.services.ingredients.get(1);
    expect(garlic!.nutrition.kcal).toBe(149);
    expect(garlic!.name).toBe('garlic');
  });

  it('moves an imported food out of the way of a seed name instead of failing the seeding', async () => {
    const db = ctx.database.db;
    // As if "onion" were a new seed name that an earlier USDA import already took.
    await sql`update ingredients set name = 'onion (old seed name)' where id = 2`.execute(db);
    await sql`insert into ingredients (name, category, default_unit, kcal, protein, carbs, fat, fiber, source, usda_ndb, search_text)
      values ('onion', 'other', 'g', 1, 0, 0, 0, 0, 'usda', '99999', 'onion')`.execute(db);
    await ctx.services.ingredients.seedIngredients();
    expect((await ctx.services.ingredients.get(2))!.name).toBe('onion');
    const moved = await ctx.services.ingredients.resolveName('onion (usda 99999)');
    expect(moved).toMatchObject({ source: 'usda', usdaNdb: '99999' });
    await sql`delete from ingredients where usda_ndb = '99999'`.execute(db);
  });

  it('gives imported foods ids from 100000 and never duplicates names or USDA numbers', async () => {
    const base = {
      aliases: [],
      category: 'other',
      default_unit: 'g' as const,
      kcal: 100,
      protein: 1,
      carbs: 2,
      fat: 3,
      fiber: 0,
      allergens: [],
      diet: [],
      density: null,
      piece_g: null,
      measures: {},
      source: 'usda' as const,
    };
    const outcome = await ctx.services.ingredients.importFoods([
      { ...base, name: 'test food one', usda_ndb: '99991' },
      { ...base, name: 'Garlic', usda_ndb: '99992' }, // name of a seed ingredient
      { ...base, name: 'garlic cloves', usda_ndb: '99993' }, // alias of one
      { ...base, name: 'test food two', usda_ndb: '11215' }, // garlic's NDB number
      { ...base, name: 'test food one', usda_ndb: '99994' }, // repeated in the same batch
    ]);
    expect(outcome).toEqual({ inserted: 1, skippedExistingNdb: 1, skippedExistingName: 3 });
    const listed = await api('GET', '/api/ingredients?q=test%20food%20one');
    expect(listed.body.items[0]).toMatchObject({
      name: 'test food one',
      category: 'other',
      default_unit: 'g',
    });
    const added = await ctx.services.ingredients.resolveName('test food one');
    expect(added!.id).toBeGreaterThanOrEqual(100000);
    expect(added!.source).toBe('usda');
    const again = await ctx.services.ingredients.importFoods([
      { ...base, name: 'test food one x', usda_ndb: '99991' },
    ]);
    expect(again.inserted).toBe(0);
  });
});

describe('IngredientCatalog', () => {
  it('gets many by id, leaving unknown ids out', async () => {
    const many = await ctx.services.ingredients.getMany([1, 2, 999_999, 1]);
    expect([...many.keys()].sort()).toEqual([1, 2]);
    expect(many.get(2)!.name).toBe('onion');
    expect(await ctx.services.ingredients.get(999_999)).toBeUndefined();
  });

  it('resolves names and aliases case-insensitively, then singular/plural forms', async () => {
    const resolve = async (n: string) => (await ctx.services.ingredients.resolveName(n))?.name;
    expect(await resolve('Garlic')).toBe('garlic');
    expect(await resolve('  SCALLIONS ')).toBe('spring onion');
    expect(await resolve('Onions')).toBe('onion');
    expect(await resolve('leek')).toBe('leek');
    expect(await resolve('leeks')).toBe('leek');
    expect(await resolve('shallot')).toBe('shallot');
    expect(await resolve('tomatoes')).toBe('tomato');
    expect(await resolve('spring-onion')).toBe('spring onion');
    expect(await resolve('2 cloves garlic')).toBeUndefined();
    expect(await resolve('')).toBeUndefined();
  });

  it('parses a free-text line against the catalog', async () => {
    const parsed = await ctx.services.ingredients.parseLine('2 cloves garlic, minced');
    expect(parsed).toMatchObject({ quantity: 2, unit: 'clove', name: 'garlic', notes: 'minced' });
    expect(parsed.ingredient?.id).toBe(1);
  });

  it('serves from memory and refreshes in the background after 60 s, seeing rows written elsewhere', async () => {
    let now = 1_000_000;
    const service = new IngredientsService(new IngredientsRepository(ctx.database.db), () => now);
    expect(await service.resolveName('cache probe')).toBeUndefined();
    await sql`insert into ingredients (name, category, default_unit, kcal, protein, carbs, fat, fiber, source, search_text)
      values ('cache probe', 'other', 'g', 1, 0, 0, 0, 0, 'usda', 'cache probe')`.execute(ctx.database.db);
    now += 59_000;
    expect(await service.resolveName('cache probe')).toBeUndefined(); // still fresh: from memory
    now += 2_000;
    expect(await service.resolveName('cache probe')).toBeUndefined(); // stale copy answers, refresh starts
    let found;
    for (let i = 0; i < 100 && !found; i += 1) {
      await new Promise((r) => setTimeout(r, 20));
      found = await service.resolveName('cache probe');
    }
    expect(found?.name).toBe('cache probe');
    expect((await service.all()).some((i) => i.name === 'cache probe')).toBe(true);
    await sql`delete from ingredients where name = 'cache probe'`.execute(ctx.database.db);
  });

  it('lists every ingredient from the cache', async () => {
    const all = await ctx.services.ingredients.all();
    expect(all.length).toBeGreaterThanOrEqual(INGREDIENTS.length);
    expect(new Set(all.map((i) => i.id)).size).toBe(all.length);
  });
});

describe('GET /api/ingredients', () => {
  it('lists without auth, paginated, with the documented item fields', async () => {
    const res = await api('GET', '/api/ingredients');
    expect(res.status).toBe(200);
    expect(res.body.limit).toBe(20);
    expect(res.body.offset).toBe(0);
    expect(res.body.total).toBeGreaterThanOrEqual(INGREDIENTS.length);
    expect(res.body.items).toHaveLength(20);
    for (const item of res.body.items) {
      expect(Object.keys(item).sort()).toEqual(['category', 'default_unit', 'id', 'name']);
      expect(Number.isInteger(item.id)).toBe(true);
      expect(['g', 'ml', 'piece']).toContain(item.default_unit);
    }
    const page2 = await api('GET', '/api/ingredients?limit=5&offset=5');
    const page1 = await api('GET', '/api/ingredients?limit=10');
    expect(page2.body.items).toEqual(page1.body.items.slice(5, 10));
  });

  it('puts the exact name first, then prefixes, then substrings', async () => {
    const res = await api('GET', '/api/ingredients?q=onion&limit=100');
    const names: string[] = res.body.items.map((i: any) => i.name);
    expect(names[0]).toBe('onion');
    expect(names).toContain('red onion');
    expect(names).toContain('spring onion');
    expect(res.body.total).toBe(names.length);
    expect(res.body.items[0]).toEqual({ id: 2, name: 'onion', category: 'produce', default_unit: 'piece' });
  });

  it('matches aliases and tolerates typos', async () => {
    const alias = await api('GET', '/api/ingredients?q=Scallions');
    expect(alias.body.items[0].name).toBe('spring onion');
    const typo = await api('GET', '/api/ingredients?q=tomatoe');
    expect(typo.body.items.map((i: any) => i.name)).toContain('tomato');
    const garbled = await api('GET', '/api/ingredients?q=garlik');
    expect(garbled.body.items.map((i: any) => i.name)).toContain('garlic');
  });

  it('answers an empty page for nonsense and for an offset past the end', async () => {
    const none = await api('GET', '/api/ingredients?q=zzqqxx');
    expect(none.body).toEqual({ items: [], total: 0, limit: 20, offset: 0 });
    const past = await api('GET', '/api/ingredients?q=onion&offset=5000');
    expect(past.body.items).toEqual([]);
    expect(past.body.total).toBeGreaterThan(0);
    // LIKE wildcards are literal: "%" finds only names that contain a percent sign ("2% milk").
    const wild = await api('GET', '/api/ingredients?q=%25&limit=100');
    expect(wild.body.total).toBeGreaterThan(0);
    for (const item of wild.body.items) {
      const info = await ctx.services.ingredients.get(item.id);
      expect([info!.name, ...info!.aliases].join(' ')).toContain('%');
    }
    expect((await api('GET', '/api/ingredients?q=_')).body.total).toBe(0);
  });

  it('rejects bad pagination and an over-long q with validation_error', async () => {
    expectProblem(await api('GET', '/api/ingredients?limit=0'), 400, 'validation_error');
    expectProblem(await api('GET', '/api/ingredients?limit=101'), 400, 'validation_error');
    expectProblem(await api('GET', '/api/ingredients?offset=-1'), 400, 'validation_error');
    expectProblem(await api('GET', '/api/ingredients?limit=abc'), 400, 'validation_error');
    expectProblem(await api('GET', `/api/ingredients?q=${'a'.repeat(101)}`), 400, 'validation_error');
  });
});
