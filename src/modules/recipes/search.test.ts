import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';
import { createRecipe } from '../../../test/support/recipes.ts';
import type { RecipeDetail } from './service.ts';

let ctx: TestApp;
let api: Api;
let owner: TestUser;
let stranger: TestUser;
let admin: TestUser;
const r: Record<string, RecipeDetail> = {};

const vegan = [
  { name: 'white rice', quantity: 200, unit: 'g' },
  { name: 'garlic', quantity: 2, unit: 'clove' },
  { name: 'olive oil', quantity: 1, unit: 'tbsp' },
];

beforeAll(async () => {
  ctx = await startTestApp();
  api = client(ctx.baseUrl);
  [owner, stranger, admin] = await Promise.all([
    createUser(ctx, { tier: 'pro' }),
    createUser(ctx),
    createUser(ctx, { admin: true, tier: 'pro' }),
  ]);
  const chicken = { name: 'chicken breast', quantity: 400, unit: 'g' };
  r.tikka = await createRecipe(ctx, null, {
    title: 'Chicken Tikka Masala',
    description: 'Charred pieces in a spiced tomato cream sauce.',
    cuisine: 'Indian',
    difficulty: 'medium',
    prep_time: 20,
    cook_time: 30,
    ingredients: [chicken, { name: 'tomato', quantity: 2, unit: 'piece' }],
  });
  r.roast = await createRecipe(ctx, null, {
    title: 'Roast Chicken',
    description: 'A whole bird with lemon.',
    cuisine: 'british',
    difficulty: 'easy',
    prep_time: 10,
    cook_time: 70,
    ingredients: [chicken],
  });
  r.friedRice = await createRecipe(ctx, null, {
    title: 'Vegetable Fried Rice',
    description: 'Quick wok rice.',
    cuisine: 'chinese',
    difficulty: 'easy',
    prep_time: 10,
    cook_time: 10,
    ingredients: vegan,
  });
  r.pilaf = await createRecipe(ctx, null, {
    title: 'Rice Pilaf',
    description: 'Fluffy rice simmered in stock.',
    cuisine: 'turkish',
    difficulty: 'easy',
    prep_time: 5,
    cook_time: 20,
    ingredients: [
      { name: 'white rice', quantity: 200, unit: 'g' },
      { name: 'chicken stock', quantity: 400, unit: 'ml' },
    ],
  });
  r.lentils = await createRecipe(ctx, null, {
    title: 'Lentil Soup',
    description: 'Hearty and cheap.',
    cuisine: 'indian',
    difficulty: 'easy',
    prep_time: 10,
    cook_time: 15,
    ingredients: [{ name: 'lentils', quantity: 200, unit: 'g' }, ...vegan.slice(1)],
  });
  r.chickpeas = await createRecipe(ctx, null, {
    title: 'Chickpea Salad',
    description: 'No cooking at all.',
    cuisine: 'greek',
    difficulty: 'easy',
    prep_time: 15,
    cook_time: 0,
    ingredients: [{ name: 'chickpeas', quantity: 200, unit: 'g' }, ...vegan.slice(2)],
  });
  r.stew = await createRecipe(ctx, null, {
    title: 'Beef Stew',
    description: 'Better than chicken soup on a cold day.',
    cuisine: 'british',
    difficulty: 'hard',
    prep_time: 30,
    cook_time: 150,
    ingredients: [{ name: 'ground beef', quantity: 500, unit: 'g' }],
  });
  r.secret = await createRecipe(ctx, owner, {
    title: 'Secret Chicken',
    description: 'Private.',
    cuisine: 'indian',
    difficulty: 'easy',
    prep_time: 5,
    cook_time: 5,
    ingredients: [chicken],
  });
});
afterAll(() => ctx.close());

const PUBLIC_COUNT = 7;
const titles = (body: { items: { title: string }[] }) => body.items.map((i) => i.title);
const get = (query: string, token?: string) => api('GET', `/api/recipes${query}`, token ? { token } : {});

describe('GET /api/recipes', () => {
  it('answers the summary fields, ordered by title without q', async () => {
    const res = await get('');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: PUBLIC_COUNT, limit: 20, offset: 0 });
    expect(titles(res.body)).toEqual([...titles(res.body)].sort());
    const tikka = res.body.items.find((i: { id: string }) => i.id === r.tikka!.id);
    expect(tikka).toEqual({
      id: r.tikka!.id,
      title: 'Chicken Tikka Masala',
      description: 'Charred pieces in a spiced tomato cream sauce.',
      cuisine: 'indian',
      difficulty: 'medium',
      prep_time: 20,
      cook_time: 30,
      servings: 2,
      calories: Math.round(r.tikka!.nutrition.calories),
      is_favourite: false,
      rating_avg: 0,
      rating_count: 0,
      image_url: null,
    });
    expect(Number.isInteger(tikka.calories)).toBe(true);
  });

  it('ranks title matches above description matches above ingredient matches', async () => {
    const res = await get('?q=chicken');
    expect(res.body.total).toBe(4);
    const order = titles(res.body);
    expect(order.slice(0, 2).sort()).toEqual(['Chicken Tikka Masala', 'Roast Chicken']);
    expect(order.slice(2)).toEqual(['Beef Stew', 'Rice Pilaf']);
  });

  it('matches the last word as a prefix, stems, and ANDs the words', async () => {
    expect(titles((await get('?q=chick')).body).sort()).toEqual(
      ['Beef Stew', 'Chicken Tikka Masala', 'Chickpea Salad', 'Rice Pilaf', 'Roast Chicken'].sort(),
    );
    expect(titles((await get('?q=chickens')).body)).toContain('Roast Chicken');
    expect(titles((await get('?q=chicken%20masala')).body)).toEqual(['Chicken Tikka Masala']);
    expect(titles((await get('?q=CHICKEN%20mas')).body)).toEqual(['Chicken Tikka Masala']);
    expect(titles((await get(`?q=${encodeURIComponent("chicken's tikka")}`)).body)).toEqual([
      'Chicken Tikka Masala',
    ]);
    // Ingredient names are searchable: lentil soup has garlic.
    expect(titles((await get('?q=garlic')).body).sort()).toEqual(['Lentil Soup', 'Vegetable Fried Rice']);
  });

  it('treats operator characters as plain text and blank q as no filter', async () => {
    const res = await get(`?q=${encodeURIComponent("chicken & | ! :* ( ' masala")}`);
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(['Chicken Tikka Masala']);
    expect((await get('?q=%20%20')).body.total).toBe(PUBLIC_COUNT);
    expect((await get('?q=zzzzqqq')).body).toMatchObject({ items: [], total: 0 });
  });

  it('filters by cuisine (case-insensitive), difficulty, total time and diet, combined', async () => {
    expect(titles((await get('?category=INDIAN')).body)).toEqual(['Chicken Tikka Masala', 'Lentil Soup']);
    expect(titles((await get('?difficulty=hard')).body)).toEqual(['Beef Stew']);
    expect(titles((await get('?max_time=25')).body)).toEqual([
      'Chickpea Salad',
      'Lentil Soup',
      'Rice Pilaf',
      'Vegetable Fried Rice',
    ]);
    expect(titles((await get('?max_time=50&difficulty=medium&category=indian')).body)).toEqual([
      'Chicken Tikka Masala',
    ]);
    expect(titles((await get('?max_time=49&difficulty=medium')).body)).toEqual([]);
    // Vegan under 30 minutes: chicken stock rules out the pilaf, meat the rest.
    const vegan = (await get('?dietary=vegan&max_time=30')).body;
    expect(titles(vegan)).toEqual(['Chickpea Salad', 'Lentil Soup', 'Vegetable Fried Rice']);
    expect(titles((await get('?dietary=vegan&q=rice')).body)).toEqual(['Vegetable Fried Rice']);
    expect(titles((await get('?dietary=gluten_free&category=british')).body)).toEqual([
      'Beef Stew',
      'Roast Chicken',
    ]);
  });

  it('pages with limit and offset; total counts every match', async () => {
    const all = titles((await get('?limit=100')).body);
    const page = (await get('?limit=2&offset=3')).body;
    expect(page).toMatchObject({ total: PUBLIC_COUNT, limit: 2, offset: 3 });
    expect(titles(page)).toEqual(all.slice(3, 5));
    expect((await get('?offset=100')).body).toMatchObject({ items: [], total: PUBLIC_COUNT });
    // Ranked pages count in the same query; a page past the end still answers the total.
    const ranked = (await get('?q=chicken&limit=1&offset=1')).body;
    expect(ranked).toMatchObject({ total: 4, limit: 1, offset: 1 });
    expect(ranked.items).toHaveLength(1);
    expect((await get('?q=chicken&offset=10')).body).toMatchObject({ items: [], total: 4 });
  });

  it.each([
    '?limit=0',
    '?limit=101',
    '?limit=abc',
    '?offset=-1',
    '?max_time=-5',
    '?max_time=ten',
    '?difficulty=extreme',
    '?dietary=carnivore',
    `?q=${'x'.repeat(201)}`,
  ])('rejects %s with 400 validation_error', async (query) => {
    expectProblem(await get(query), 400, 'validation_error');
  });

  it('shows private recipes to their owner and admins only', async () => {
    const forOwner = await get('?q=chicken', owner.token);
    expect(forOwner.body.total).toBe(5);
    expect(titles(forOwner.body)).toContain('Secret Chicken');
    expect((await get('?q=chicken', admin.token)).body.total).toBe(5);
    expect((await get('?q=chicken', stranger.token)).body.total).toBe(4);
    expect((await get('?q=chicken')).body.total).toBe(4);
  });

  it('reads the shown fields fresh even when the result is shared, and sees new recipes at once', async () => {
    const before = (await get('?q=lentil')).body.items[0];
    expect(before).toMatchObject({ id: r.lentils!.id, rating_count: 0 });
    await api('POST', `/api/recipes/${r.lentils!.id}/rate`, { token: stranger.token, body: { rating: 4 } });
    expect((await get('?q=lentil')).body.items[0]).toMatchObject({ rating_count: 1, rating_avg: 4 });
    const extra = await createRecipe(ctx, null, { title: 'Red Lentil Dal' });
    const after = (await get('?q=lentil')).body;
    expect(after.total).toBe(2);
    expect(titles(after)).toContain('Red Lentil Dal');
    expect((await api('DELETE', `/api/recipes/${extra.id}`, { token: admin.token })).status).toBe(204);
    expect((await get('?q=lentil')).body.total).toBe(1);
  });

  it('marks the caller’s favourites', async () => {
    await api('POST', `/api/recipes/${r.lentils!.id}/favourite`, { token: stranger.token });
    const items = (await get('?q=lentil', stranger.token)).body.items;
    expect(items).toEqual([expect.objectContaining({ id: r.lentils!.id, is_favourite: true })]);
    expect((await get('?q=lentil', owner.token)).body.items[0].is_favourite).toBe(false);
  });

  it('is the same search other modules call (RecipeCatalog.search), with a meal-type filter', async () => {
    const result = await ctx.services.recipes.search(
      { q: 'chicken', limit: 10, offset: 0, mealType: 'breakfast' },
      undefined,
    );
    expect(result).toEqual({ items: [], total: 0 });
    const lunch = await ctx.services.recipes.search(
      { q: 'chicken', limit: 10, offset: 0, mealType: 'lunch' },
      undefined,
    );
    expect(lunch.total).toBe(4);
    expect(lunch.items[0]).toMatchObject({ isFavourite: false, ratingAvg: 0, imageUrl: null });
  });
});
