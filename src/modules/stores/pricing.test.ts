import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import { insertPromotion } from '../../../test/support/flyers.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';
import type { Kysely } from 'kysely';
import { costFor, measureOf, PricingService } from './pricing.ts';
import { StoresRepository } from './repository.ts';
import type { StoresTables } from './tables.ts';

let ctx: TestApp;
let api: Api;
let pro: TestUser;

const FUTURE = '2099-12-31';
const WHITE_RICE = 322;
const MILK = 271;
const BUTTER = 268;
const EGGPLANT = 74;
const CHICKEN = 215;

beforeAll(async () => {
  ctx = await startTestApp();
  api = client(ctx.baseUrl);
  await ctx.services.ingredients.seedIngredients();
  pro = await createUser(ctx, { tier: 'pro' });
  const a = await ctx.services.stores.createStore({
    name: 'Alpha Foods',
    logo_url: 'https://x.example/a.png',
  });
  const b = await ctx.services.stores.createStore({
    name: 'Beta Market',
    logo_url: 'https://x.example/b.png',
  });
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  // Alpha: rice by the kilo, milk in 1 l packs; no butter.
  await insertPromotion(ctx, a.id, {
    product: 'Basmati Rice',
    brand: 'Tilda',
    original_price: 2.49,
    discounted_price: 1.99,
    unit: 'per kg',
    valid_until: FUTURE,
  });
  await insertPromotion(ctx, a.id, {
    product: 'Whole Milk',
    original_price: 1.19,
    discounted_price: 0.99,
    unit: '1 l',
    valid_until: FUTURE,
  });
  // Near misses that must not match: "butter" in "Buttermilk" scores 0.5, below the threshold.
  await insertPromotion(ctx, a.id, {
    product: 'Buttermilk',
    original_price: 0.79,
    discounted_price: 0.39,
    unit: '500 ml',
    valid_until: FUTURE,
  });
  await insertPromotion(ctx, a.id, {
    product: 'Eggplant',
    original_price: 1.5,
    discounted_price: 1,
    unit: 'each',
    valid_until: FUTURE,
  });
  // Not live or no longer valid: never priced.
  await insertPromotion(ctx, a.id, {
    product: 'Irish Butter',
    original_price: 1,
    discounted_price: 0.5,
    unit: '250 g',
    valid_until: FUTURE,
    status: 'candidate',
  });
  await insertPromotion(ctx, b.id, {
    product: 'Long Grain Rice',
    original_price: 0.5,
    discounted_price: 0.1,
    unit: 'per kg',
    valid_until: yesterday,
  });
  // Beta: rice in a 5 kg sack, butter 250 g packs, milk 1 l packs.
  await insertPromotion(ctx, b.id, {
    product: 'Long Grain Rice',
    brand: "Uncle Ben's",
    original_price: 6,
    discounted_price: 5,
    unit: '1 Sack (5Kg)',
    valid_until: FUTURE,
  });
  await insertPromotion(ctx, b.id, {
    product: 'Irish Butter',
    brand: 'Kerrygold',
    original_price: 2.99,
    discounted_price: 2.49,
    unit: '250 g',
    valid_until: FUTURE,
  });
  await insertPromotion(ctx, b.id, {
    product: 'Fresh Milk',
    original_price: 0.99,
    discounted_price: 0.89,
    unit: '1 l',
    valid_until: FUTURE,
  });

  for (const body of [
    { ingredient_id: WHITE_RICE, quantity: 2, unit: 'kg' },
    { ingredient_id: MILK, quantity: 1.5, unit: 'l' },
    { ingredient_id: BUTTER, quantity: 250, unit: 'g' },
  ]) {
    const res = await api('POST', '/api/shopping-list', { token: pro.token, body });
    expect(res.status).toBe(201);
  }
});

afterAll(async () => {
  if (ctx) await ctx.close();
});

describe('pricing rules', () => {
  it('reads promotion units as rates or packs', () => {
    expect(measureOf('per kg')).toEqual({ kind: 'rate', amount: 1, unit: 'kg' });
    expect(measureOf('per 100 g')).toEqual({ kind: 'rate', amount: 100, unit: 'g' });
    expect(measureOf('each')).toEqual({ kind: 'rate', amount: 1, unit: 'piece' });
    expect(measureOf('1 Sack (10Kg)')).toEqual({ kind: 'pack', amount: 10, unit: 'kg' });
    expect(measureOf('3 Stück')).toEqual({ kind: 'pack', amount: 3, unit: 'piece' });
    expect(measureOf('')).toBeUndefined();
  });

  it('prices the needed quantity where units allow, else the unit price once', () => {
    expect(costFor({ quantity: 1500, unit: 'g' }, { discounted_price: 2, unit: 'per kg' }, undefined)).toBe(
      3,
    );
    expect(costFor({ quantity: 1.2, unit: 'kg' }, { discounted_price: 0.5, unit: '500 g' }, undefined)).toBe(
      1.5,
    );
    expect(costFor({ quantity: 2, unit: 'cup' }, { discounted_price: 4, unit: 'Packung' }, undefined)).toBe(
      4,
    );
    expect(costFor({ quantity: 3, unit: 'piece' }, { discounted_price: 2, unit: 'per kg' }, undefined)).toBe(
      2,
    );
  });
});

describe('GET /api/shopping-list/prices and /optimize', () => {
  it('needs a token and the Pro tier', async () => {
    const free = await createUser(ctx);
    for (const path of ['/api/shopping-list/prices', '/api/shopping-list/optimize']) {
      expectProblem(await api('GET', path), 401, 'unauthorized');
      const denied = expectProblem(await api('GET', path, { token: free.token }), 403, 'tier_required');
      expect(denied.required_tier).toBe('pro');
    }
    const family = await createUser(ctx, { tier: 'family' });
    expect((await api('GET', '/api/shopping-list/prices', { token: family.token })).status).toBe(200);
  });

  it('lists live, valid promotion prices per item and store, cheapest first', async () => {
    const res = await api('GET', '/api/shopping-list/prices', { token: pro.token });
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(
      res.body.items.map((i: { ingredient_name: string }) => [i.ingredient_name, i]),
    );
    expect(Object.keys(byName).sort()).toEqual(['butter', 'milk', 'white rice']);
    expect(byName['white rice'].prices).toEqual([
      { store_name: 'Alpha Foods', price: 2.49, unit: 'per kg', discounted_price: 1.99, valid_until: FUTURE },
      { store_name: 'Beta Market', price: 6, unit: '1 Sack (5Kg)', discounted_price: 5, valid_until: FUTURE },
    ]);
    // 1.5 l of milk: two 1 l packs — Beta 1.78 beats Alpha 1.98.
    expect(byName.milk.prices.map((p: { store_name: string }) => p.store_name)).toEqual([
      'Beta Market',
      'Alpha Foods',
    ]);
    // The butter candidate at Alpha is not live: only Beta's.
    expect(byName.butter.prices).toEqual([
      { store_name: 'Beta Market', price: 2.99, unit: '250 g', discounted_price: 2.49, valid_until: FUTURE },
    ]);
  });

  it('optimises: best single store, cheapest split, savings (hand-computed)', async () => {
    // Alpha: rice 2 kg × 1.99 = 3.98, milk 2 × 0.99 = 1.98 → 2 of 3 items, 5.96.
    // Beta: rice 1 sack 5.00, milk 2 × 0.89 = 1.78, butter 2.49 → 3 of 3 items, 9.27.
    // Split: rice at Alpha 3.98; milk 1.78 + butter 2.49 at Beta = 4.27 → 8.25. Savings 9.27 − 8.25.
    const res = await api('GET', '/api/shopping-list/optimize', { token: pro.token });
    expect(res.status).toBe(200);
    expect(res.body.single_store_best).toEqual({
      store_name: 'Beta Market',
      total_price: 9.27,
      coverage_percent: 100,
    });
    expect(res.body.multi_store_split).toEqual([
      { store_name: 'Alpha Foods', items: ['white rice'], subtotal: 3.98 },
      { store_name: 'Beta Market', items: expect.arrayContaining(['milk', 'butter']), subtotal: 4.27 },
    ]);
    expect(res.body.multi_store_split[1].items).toHaveLength(2);
    expect(res.body.multi_store_total).toBe(8.25);
    expect(res.body.savings).toBe(1.02);
  });

  it('an empty list optimises to nothing, never negative savings', async () => {
    const other = await createUser(ctx, { tier: 'pro' });
    const prices = await api('GET', '/api/shopping-list/prices', { token: other.token });
    expect(prices.body).toEqual({ items: [] });
    const res = await api('GET', '/api/shopping-list/optimize', { token: other.token });
    expect(res.body).toEqual({
      single_store_best: { store_name: '', total_price: 0, coverage_percent: 0 },
      multi_store_split: [],
      multi_store_total: 0,
      savings: 0,
      items: [],
      unpriced: [],
    });
  });

  it('prices both options over the same basket: an item the single store lacks at its regular price', async () => {
    const shopper = await createUser(ctx, { tier: 'pro' });
    for (const body of [
      { ingredient_id: EGGPLANT, quantity: 2, unit: 'piece' },
      { ingredient_id: MILK, quantity: 1.5, unit: 'l' },
      { ingredient_id: BUTTER, quantity: 250, unit: 'g' },
      { ingredient_id: CHICKEN, quantity: 300, unit: 'g' },
    ])
      expect((await api('POST', '/api/shopping-list', { token: shopper.token, body })).status).toBe(201);
    // Alpha: eggplant 2 × 1.00, milk 2 × 0.99 → 2 items, 3.98; Beta: milk 1.78, butter 2.49 → 2 items, 4.27.
    // Alpha is the single store; it has no butter offer, so butter counts at the lowest regular
    // price a flyer states (Beta's 2.99): 2.00 + 1.98 + 2.99 = 6.97. Split: 2.00 + 1.78 + 2.49 = 6.27.
    // Before, 3.98 (two items) was compared with 6.27 (three): savings 0.
    const res = await api('GET', '/api/shopping-list/optimize', { token: shopper.token });
    expect(res.status).toBe(200);
    expect(res.body.single_store_best).toEqual({
      store_name: 'Alpha Foods',
      total_price: 6.97,
      coverage_percent: 50,
    });
    expect(res.body.multi_store_total).toBe(6.27);
    expect(res.body.savings).toBe(0.7);
    expect(res.body.unpriced).toEqual(['chicken breast']);
    const byName = Object.fromEntries(
      res.body.items.map((i: { ingredient_name: string }) => [i.ingredient_name, i]),
    );
    expect(byName.butter).toEqual({
      ingredient_name: 'butter',
      store_name: 'Beta Market',
      cost: 2.49,
      reason: 'the only offer',
      single_store: { cost: 2.99, basis: 'regular_price' },
    });
    expect(byName.milk).toMatchObject({
      store_name: 'Beta Market',
      cost: 1.78,
      reason: 'the cheapest of 2 offers (next: Alpha Foods 1.98)',
      single_store: { cost: 1.98, basis: 'promotion' },
    });
  });
});

describe('stored promotion matches', () => {
  let admin: TestUser;
  let buyer: TestUser;
  let gamma: { id: string };

  const butterStores = async (): Promise<string[]> => {
    const res = await api('GET', '/api/shopping-list/prices', { token: buyer.token });
    return res.body.items[0].prices.map((p: { store_name: string }) => p.store_name);
  };
  const matchesOf = async (promotionId: string): Promise<number[]> => {
    const rows = await sql<{ ingredient_id: number }>`
      select ingredient_id from promotion_matches where promotion_id = ${promotionId}`.execute(
      ctx.database.db,
    );
    return rows.rows.map((r) => r.ingredient_id);
  };

  beforeAll(async () => {
    admin = await createUser(ctx, { admin: true });
    buyer = await createUser(ctx, { tier: 'pro' });
    gamma = await ctx.services.stores.createStore({
      name: 'Gamma Grocer',
      logo_url: 'https://x.example/g.png',
    });
    const res = await api('POST', '/api/shopping-list', {
      token: buyer.token,
      body: { ingredient_id: BUTTER, quantity: 250, unit: 'g' },
    });
    expect(res.status).toBe(201);
    expect(await butterStores()).toEqual(['Beta Market']);
  });

  it('a promotion is matched to ingredients when it is promoted to live', async () => {
    const id = await insertPromotion(ctx, gamma.id, {
      product: 'Salted Butter',
      original_price: 2,
      discounted_price: 1.5,
      unit: '250 g',
      valid_until: FUTURE,
      status: 'candidate',
    });
    expect(await matchesOf(id)).toEqual([]);
    const res = await api('POST', `/api/admin/stores/${gamma.id}/promotions/promote`, {
      token: admin.token,
      body: { candidate_ids: [id] },
    });
    expect(res.body).toEqual({ promoted: 1 });
    expect(await matchesOf(id)).toEqual([BUTTER]);
    expect(await butterStores()).toEqual(['Gamma Grocer', 'Beta Market']);
  });

  it('answers again from its cache until the list, the promotions or the day change', async () => {
    let reads = 0;
    class CountingRepository extends StoresRepository {
      override matchState(ids: readonly number[], today: string) {
        reads += 1;
        return super.matchState(ids, today);
      }
    }
    let today = new Date().toISOString().slice(0, 10);
    const pricing = new PricingService(
      new CountingRepository(ctx.database.db as unknown as Kysely<StoresTables>),
      ctx.services.shopping,
      ctx.services.ingredients,
      () => today,
    );
    const first = await pricing.prices(buyer.user.id);
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    expect(await pricing.prices(buyer.user.id)).toBe(first);
    expect(reads).toBe(afterFirst);

    // The list changes: computed again.
    const added = await api('POST', '/api/shopping-list', {
      token: buyer.token,
      body: { ingredient_id: MILK, quantity: 1, unit: 'l' },
    });
    const withMilk = await pricing.prices(buyer.user.id);
    expect(reads).toBeGreaterThan(afterFirst);
    expect(withMilk.map((i) => i.ingredientName)).toHaveLength(first.length + 1);

    // A live promotion changes price: the new price is what the next answer holds.
    const beta = (await api('GET', '/api/stores')).body.find(
      (s: { name: string }) => s.name === 'Beta Market',
    );
    const promotions = await api('GET', `/api/stores/${beta.id}/promotions?q=milk`);
    const milkOffer = promotions.body.items[0];
    const beforeEdit = reads;
    await api('PUT', `/api/admin/candidates/${milkOffer.id}`, {
      token: admin.token,
      body: { discounted_price: 0.42 },
    });
    const edited = await pricing.prices(buyer.user.id);
    expect(reads).toBeGreaterThan(beforeEdit);
    const milkPrices = edited.find((i) =>
      i.prices.some((p) => p.storeName === 'Beta Market' && p.discountedPrice === 0.42),
    );
    expect(milkPrices).toBeDefined();

    // Another day: computed again (offers may have expired at midnight).
    const beforeDay = reads;
    today = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await pricing.prices(buyer.user.id);
    expect(reads).toBeGreaterThan(beforeDay);
    await api('DELETE', `/api/shopping-list/${added.body.id}`, { token: buyer.token });
  });

  it('reads the promotions version once for the requests that arrive together, and anew after them', async () => {
    let versionReads = 0;
    class CountingRepository extends StoresRepository {
      override promotionsVersion() {
        versionReads += 1;
        return super.promotionsVersion();
      }
    }
    const pricing = new PricingService(
      new CountingRepository(ctx.database.db as unknown as Kysely<StoresTables>),
      ctx.services.shopping,
      ctx.services.ingredients,
      () => new Date().toISOString().slice(0, 10),
    );
    const together = await Promise.all([1, 2, 3].map(() => pricing.optimize(buyer.user.id)));
    expect(versionReads).toBe(1);
    expect(together[1]).toEqual(together[0]);
    // Asked again, nothing changed: the version read anew each time, the optimisation computed once.
    const again = await pricing.optimize(buyer.user.id);
    expect(await pricing.optimize(buyer.user.id)).toBe(again);
    expect(versionReads).toBe(3);
  });

  it('editing a live promotion matches it again', async () => {
    const [row] = (
      await sql<{ id: string }>`select id from promotions where product = 'Salted Butter'`.execute(
        ctx.database.db,
      )
    ).rows;
    const res = await api('PUT', `/api/admin/candidates/${row!.id}`, {
      token: admin.token,
      body: { product: 'Sparkling Water' },
    });
    expect(res.status).toBe(200);
    expect(await matchesOf(row!.id)).toEqual([]);
    expect(await butterStores()).toEqual(['Beta Market']);
  });

  it('rejecting a live promotion takes it out of pricing', async () => {
    const id = await insertPromotion(ctx, gamma.id, {
      product: 'Cultured Butter',
      original_price: 3,
      discounted_price: 2,
      unit: '250 g',
      valid_until: FUTURE,
      status: 'candidate',
    });
    await api('POST', `/api/admin/stores/${gamma.id}/promotions/promote`, {
      token: admin.token,
      body: { candidate_ids: [id] },
    });
    expect(await butterStores()).toEqual(['Gamma Grocer', 'Beta Market']);
    const res = await api('DELETE', `/api/admin/candidates/${id}`, { token: admin.token });
    expect(res.status).toBe(204);
    expect(await matchesOf(id)).toEqual([]);
    expect(await butterStores()).toEqual(['Beta Market']);
  });

  it('a match whose promotion has expired since it was matched is no longer priced', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const id = await insertPromotion(ctx, gamma.id, {
      product: 'Farmhouse Butter',
      original_price: 2.2,
      discounted_price: 1.1,
      unit: '250 g',
      valid_until: day(1),
      status: 'candidate',
    });
    await api('POST', `/api/admin/stores/${gamma.id}/promotions/promote`, {
      token: admin.token,
      body: { candidate_ids: [id] },
    });
    const pricingOn = (today: string) =>
      new PricingService(
        new StoresRepository(ctx.database.db as unknown as Kysely<StoresTables>),
        ctx.services.shopping,
        ctx.services.ingredients,
        () => today,
      );
    const storesOn = async (today: string) =>
      (await pricingOn(today).prices(buyer.user.id))[0]!.prices.map((p) => p.storeName);
    expect(await storesOn(day(1))).toEqual(['Gamma Grocer', 'Beta Market']);
    expect(await storesOn(day(2))).toEqual(['Beta Market']);
    await api('DELETE', `/api/admin/candidates/${id}`, { token: admin.token });
  });

  it('promoting matches exactly the pairs that score at least the threshold (trigram prefilter loses none)', async () => {
    // Every reference ingredient takes part, as after a catalog's worth of pricing.
    await sql`
      insert into promotion_match_terms (ingredient_id, terms)
      select id, array(select distinct lower(trim(x)) from unnest(array[name] || aliases) as x
                       where trim(x) <> '' order by 1)
      from ingredients
      on conflict (ingredient_id) do nothing`.execute(ctx.database.db);
    const products: Array<[string, string]> = [
      ['Cherry Tomatoes', ''],
      ['Eggplant', ''],
      ['Buttermilk', 'Weihenstephan'],
      ['Free Range Eggs', 'Happy Hens'],
      ['Basmati Rice 5kg', 'Tilda'],
      ['Red Onions', ''],
      ['Chicken Thighs', 'Wiesenhof'],
      ['Mozzarella', 'Galbani'],
      ['Extra Virgin Olive Oil', 'Bertolli'],
      ['Garlic Bulbs', ''],
      ['Greek Yoghurt', 'Fage'],
      ['Spaghetti No. 5', 'Barilla'],
      ['Ground Beef 80/20', ''],
      ['Salmon Fillets', ''],
      ['Sweet Potatoes', ''],
      ['Oat Milk', 'Oatly'],
      ['Dark Chocolate 70%', 'Lindt'],
      ['Kidney Beans', 'Heinz'],
      ['Frozen Peas', 'Birds Eye'],
      ['Sesame Oil', ''],
    ];
    const ids: string[] = [];
    for (const [product, brand] of products) {
      ids.push(
        await insertPromotion(ctx, gamma.id, {
          product,
          brand,
          original_price: 3,
          discounted_price: 2,
          unit: 'each',
          valid_until: FUTURE,
          status: 'candidate',
        }),
      );
    }
    const res = await api('POST', `/api/admin/stores/${gamma.id}/promotions/promote`, {
      token: admin.token,
      body: { candidate_ids: ids },
    });
    expect(res.body).toEqual({ promoted: products.length });
    const pairs = (rows: Array<{ ingredient_id: number; promotion_id: string }>) =>
      rows.map((r) => `${r.ingredient_id}/${r.promotion_id}`).sort();
    const stored = await sql<{ ingredient_id: number; promotion_id: string }>`
      select ingredient_id, promotion_id from promotion_matches where promotion_id = any(${ids}::uuid[])`.execute(
      ctx.database.db,
    );
    // Every term scored against every promotion, no prefilter.
    const bruteForce = await sql<{ ingredient_id: number; promotion_id: string }>`
      select t.ingredient_id, p.id as promotion_id
      from promotions p, (select ingredient_id, unnest(terms) as term from promotion_match_terms) t
      where p.id = any(${ids}::uuid[])
      group by t.ingredient_id, p.id
      having max(greatest(similarity(p.product, t.term), strict_word_similarity(t.term, p.product),
                          strict_word_similarity(t.term, p.brand || ' ' || p.product))) >= 0.55`.execute(
      ctx.database.db,
    );
    expect(stored.rows.length).toBeGreaterThan(15);
    expect(pairs(stored.rows)).toEqual(pairs(bruteForce.rows));
    for (const id of ids) await api('DELETE', `/api/admin/candidates/${id}`, { token: admin.token });
    // The brute-force join over every reference ingredient takes 10–20 s on embedded PGlite, and
    // past the default 30 s on a shared two-core machine under load.
  }, 120_000);

  it('an ingredient whose terms changed since it was matched is matched again when priced', async () => {
    await sql`update promotion_match_terms set terms = '{margarine}' where ingredient_id = ${BUTTER}`.execute(
      ctx.database.db,
    );
    await sql`delete from promotion_matches where ingredient_id = ${BUTTER}`.execute(ctx.database.db);
    expect(await butterStores()).toEqual(['Beta Market']);
    const terms = await sql<{ terms: string[] }>`
      select terms from promotion_match_terms where ingredient_id = ${BUTTER}`.execute(ctx.database.db);
    expect(terms.rows[0]!.terms).toContain('butter');
  });
});
