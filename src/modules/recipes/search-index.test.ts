import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser } from '../../../test/support/factories.ts';
import { createRecipe } from '../../../test/support/recipes.ts';
import { RecipesRepository, tsQueryText } from './repository.ts';
import { BYTES_PER_INDEXED_RECIPE, LogPosition, RecipeSearchFeed } from './search-feed.ts';
import {
  parseQueryText,
  lexemeScore,
  parseVector,
  RecipeSearchIndex,
  topOf,
  type SearchDocument,
} from './search-index.ts';
import type { RecipesTables } from './tables.ts';

const PAGE = { limit: 100, offset: 0 };

function doc(id: string, title: string, vector: string, extra: Partial<SearchDocument> = {}): SearchDocument {
  return {
    id,
    title,
    ownerId: null,
    isPublic: false,
    cuisine: 'italian',
    difficulty: 'easy',
    totalTime: 30,
    fits: ['vegetarian'],
    mealTypes: ['dinner'],
    vector,
    shown: {
      description: '',
      cuisine: extra.cuisine ?? 'italian',
      difficulty: 'easy',
      prepTime: 10,
      cookTime: 20,
      servings: 2,
      calories: 500,
      ratingCount: 0,
      ratingSum: 0,
      imageUrl: null,
    },
    ...extra,
  };
}

/** A search's answer as ids (what these tests compare). */
function idsOf(result: { hits: Array<{ id: string }>; total: number }): { ids: string[]; total: number } {
  return { ids: result.hits.map((h) => h.id), total: result.total };
}

describe('RecipeSearchIndex', () => {
  const build = () => {
    const index = new RecipeSearchIndex();
    index.load([
      doc('a', 'Tomato Soup', "'soup':2A 'tomato':1A,5C"),
      doc('b', 'Soupy Rice', "'rice':2A 'soupi':1A"),
      doc('c', 'Green Salad', "'green':1A 'salad':2A 'tomato':4B", { cuisine: 'french', totalTime: 10 }),
      doc('d', 'Secret Soup', "'secret':1A 'soup':2A", { ownerId: 'u1' }),
      doc('e', 'Chicken Soup', "'chicken':1A 'soup':2A,6B,9C", { fits: [], mealTypes: ['lunch'] }),
    ]);
    return index;
  };
  const ids = (index: RecipeSearchIndex, q: string, viewer?: { id: string; isAdmin: boolean }) =>
    idsOf(index.search({ terms: parseQueryText(q) }, viewer, PAGE)).ids;

  it('reads tsvector and tsquery text, quotes and weights included', () => {
    expect(parseVector("'it''s':1A 'soup':2,3B")).toEqual([
      ["it's", expect.any(Number)],
      ['soup', expect.any(Number)],
    ]);
    expect(parseQueryText("'chicken' & 'soup':*")).toEqual([
      { lexeme: 'chicken', prefix: false },
      { lexeme: 'soup', prefix: true },
    ]);
  });

  it('parses any tsvector text as the plain regular-expression reading did', () => {
    // The reading the one-pass parser replaced, kept here as the reference.
    const weightOf: Record<string, number> = { A: 1, B: 0.4, C: 0.2, D: 0.1 };
    const reference = (text: string): Array<[string, number]> => {
      const out: Array<[string, number]> = [];
      const entry = /'((?:[^']|'')*)'(?::([0-9A-D,]+))?/g;
      for (let m = entry.exec(text); m; m = entry.exec(text)) {
        const weights = m[2]
          ? m[2].split(',').map((p) => Math.fround(weightOf[p.replace(/[0-9]/g, '') || 'D']!))
          : [Math.fround(0.1)];
        out.push([m[1]!.replace(/''/g, "'"), lexemeScore(weights)]);
      }
      return out;
    };
    const lexeme = fc.string({ minLength: 1, maxLength: 12 }).map((l) => `'${l.replace(/'/g, "''")}'`);
    const position = fc
      .tuple(fc.integer({ min: 1, max: 16383 }), fc.constantFrom('', 'A', 'B', 'C', 'D'))
      .map(([at, weight]) => `${at}${weight}`);
    const entry = fc
      .tuple(lexeme, fc.array(position, { maxLength: 5 }))
      .map(([l, at]) => (at.length > 0 ? `${l}:${at.join(',')}` : l));
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 20 }), (entries) => {
        const text = entries.join(' ');
        expect(parseVector(text)).toEqual(reference(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('ranks by weighted occurrences, ties by title; prefixes and AND across words', () => {
    const index = build();
    // e has soup three times (A, B, C): above a and the private d, which have it once in A.
    expect(ids(index, "'soup'")).toEqual(['e', 'a']);
    expect(ids(index, "'soup':*")).toEqual(['e', 'b', 'a']);
    expect(ids(index, "'tomato' & 'soup'")).toEqual(['a']);
    expect(ids(index, "'tomato'")).toEqual(['a', 'c']);
    expect(ids(index, "'nothing'")).toEqual([]);
    expect(idsOf(index.search({ terms: [] }, undefined, PAGE))).toEqual({ ids: [], total: 0 });
  });

  it('shows private documents to their owner and admins only', () => {
    const index = build();
    expect(ids(index, "'secret'")).toEqual([]);
    expect(ids(index, "'secret'", { id: 'u2', isAdmin: false })).toEqual([]);
    expect(ids(index, "'secret'", { id: 'u1', isAdmin: false })).toEqual(['d']);
    expect(ids(index, "'secret'", { id: 'u2', isAdmin: true })).toEqual(['d']);
  });

  it('filters, orders by title without words, pages and counts', () => {
    const index = build();
    const all = idsOf(index.search({}, undefined, PAGE));
    expect(all).toEqual({ ids: ['e', 'c', 'b', 'a'], total: 4 });
    expect(idsOf(index.search({}, undefined, { limit: 2, offset: 1 }))).toEqual({
      ids: ['c', 'b'],
      total: 4,
    });
    expect(idsOf(index.search({ cuisine: 'french' }, undefined, PAGE)).ids).toEqual(['c']);
    expect(idsOf(index.search({ maxTime: 20 }, undefined, PAGE)).ids).toEqual(['c']);
    expect(idsOf(index.search({ dietary: 'vegetarian', mealType: 'dinner' }, undefined, PAGE)).total).toBe(3);
    expect(
      idsOf(index.search({ terms: parseQueryText("'soup':*"), mealType: 'lunch' }, undefined, PAGE)).ids,
    ).toEqual(['e']);
  });

  it('replaces and removes documents, new lexemes included, and compacts', () => {
    const index = build();
    index.upsert(doc('a', 'Zucchini Bake', "'bake':2A 'zucchini':1A"));
    expect(ids(index, "'tomato'")).toEqual(['c']);
    expect(ids(index, "'zucch':*")).toEqual(['a']);
    expect(idsOf(index.search({}, undefined, PAGE)).ids).toEqual(['e', 'c', 'b', 'a']);
    index.remove('c');
    index.remove('missing');
    expect(ids(index, "'tomato'")).toEqual([]);
    expect(index.size).toBe(4);
    for (let i = 0; i < 6000; i++) index.upsert(doc('x', `Extra ${i}`, `'extra':1A 'n${i}':2A`));
    expect(index.size).toBe(5);
    expect(ids(index, "'extra'")).toEqual(['x']);
    expect(ids(index, "'n5999'")).toEqual(['x']);
    expect(ids(index, "'n5998'")).toEqual([]);
  });

  it("counts and pages a word's matches right between removals when every document passes (the count is kept)", () => {
    const index = new RecipeSearchIndex();
    const name = (i: number) => String(i).padStart(2, '0');
    index.load(Array.from({ length: 50 }, (_, i) => doc(`s${name(i)}`, `Soup ${name(i)}`, "'soup':1A")));
    const soup = parseQueryText("'soup'");
    const page = (offset: number, viewer?: { id: string; isAdmin: boolean }) =>
      idsOf(index.search({ terms: soup }, viewer, { limit: 5, offset }));
    expect(page(0)).toEqual({ ids: ['s00', 's01', 's02', 's03', 's04'], total: 50 });
    expect(page(10)).toEqual({ ids: ['s10', 's11', 's12', 's13', 's14'], total: 50 });
    index.remove('s02');
    index.remove('s40');
    expect(page(0)).toEqual({ ids: ['s00', 's01', 's03', 's04', 's05'], total: 48 });
    expect(page(45)).toEqual({ ids: ['s47', 's48', 's49'], total: 48 });
    expect(idsOf(index.search({}, undefined, { limit: 3, offset: 1 }))).toEqual({
      ids: ['s01', 's03', 's04'],
      total: 48,
    });
    // A private document: visibility filters again (its owner sees it, nobody else does).
    index.upsert(doc('p', 'Soup 00 (mine)', "'soup':1A", { ownerId: 'u1' }));
    expect(page(0)).toEqual({ ids: ['s00', 's01', 's03', 's04', 's05'], total: 48 });
    expect(page(0, { id: 'u1', isAdmin: false })).toEqual({
      ids: ['s00', 'p', 's01', 's03', 's04'],
      total: 49,
    });
    expect(idsOf(index.search({}, undefined, { limit: 2, offset: 0 }))).toEqual({
      ids: ['s00', 's01'],
      total: 48,
    });
    expect(idsOf(index.search({}, { id: 'x', isAdmin: true }, { limit: 2, offset: 0 }))).toEqual({
      ids: ['s00', 'p'],
      total: 49,
    });
  });

  it('keeps title order and the per-cuisine lists through many random writes', () => {
    const index = new RecipeSearchIndex();
    const model = new Map<string, SearchDocument>();
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 48271) % 2147483647), seed % n);
    for (let step = 0; step < 3000; step++) {
      const id = `r${next(300)}`;
      if (next(5) === 0) {
        index.remove(id);
        model.delete(id);
        continue;
      }
      // Titles crowd into one spot ("m" + a, "m" + aa, ...) so that title ranks run out of room.
      const title = next(2) === 0 ? `m${'a'.repeat(next(60))}` : `t${next(1000)}`;
      const document = doc(id, title, `'word':1A 'w${next(50)}':2B`, {
        cuisine: ['thai', 'greek'][next(2)]!,
      });
      index.upsert(document);
      model.set(id, document);
      // Ranked postings are kept between queries: they must follow the writes in between.
      if (step % 500 === 0) {
        const ranked = idsOf(
          index.search({ terms: parseQueryText("'word'") }, undefined, {
            limit: 1000,
            offset: 0,
          }),
        );
        expect(ranked.total).toBe(model.size);
      }
    }
    const expected = (cuisine?: string) =>
      [...model.values()]
        .filter((d) => cuisine === undefined || d.cuisine === cuisine)
        .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id < b.id ? -1 : 1))
        .map((d) => d.id);
    const all = { limit: 1000, offset: 0 };
    expect(idsOf(index.search({}, undefined, all)).ids).toEqual(expected());
    expect(idsOf(index.search({ cuisine: 'thai' }, undefined, all)).ids).toEqual(expected('thai'));
    expect(idsOf(index.search({ cuisine: 'greek' }, undefined, all)).ids).toEqual(expected('greek'));
    expect(idsOf(index.search({ terms: parseQueryText("'word'") }, undefined, all)).ids).toEqual(expected());
    expect(idsOf(index.search({ cuisine: 'nordic' }, undefined, all))).toEqual({ ids: [], total: 0 });
  });

  it('takes the first items of an order with a heap as a full sort would', () => {
    const items = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1009);
    const order = (a: number, b: number) => a - b;
    for (const count of [0, 1, 5, 20, 300, 1000, 2000]) {
      expect(topOf([...items], count, order)).toEqual([...items].sort(order).slice(0, count));
    }
  });
});

describe('LogPosition (how far the change log was read)', () => {
  it('remembers numbers missing below the highest seen until they show', () => {
    const position = LogPosition.of([3, 4, 7, 8, 11], 0);
    expect(position.last).toBe(11);
    expect(position.ranges()).toEqual([
      [5, 6],
      [9, 10],
    ]);
    position.advance([6, 12, 15], 1);
    expect(position.last).toBe(15);
    expect(position.ranges()).toEqual([
      [5, 5],
      [9, 10],
      [13, 14],
    ]);
    position.advance([5, 9, 10, 13, 14], 2);
    expect(position.ranges()).toEqual([]);
    expect(LogPosition.of([], 0)).toMatchObject({ last: 0 });
  });

  it('gives up on a missing number after half an hour (a rolled-back transaction) and keeps few ranges', () => {
    const position = LogPosition.of([1, 3], 0);
    position.advance([], 29 * 60_000);
    expect(position.ranges()).toEqual([[2, 2]]);
    position.advance([], 31 * 60_000);
    expect(position.ranges()).toEqual([]);
    const sparse = LogPosition.of(
      Array.from({ length: 200 }, (_, i) => i * 2),
      0,
    );
    expect(sparse.ranges().length).toBe(64);
    expect(sparse.ranges()[0]![0]).toBe(1);
    expect(sparse.ranges().at(-1)![1]).toBe(397);
  });
});

describe('RecipeSearchFeed', () => {
  it('a write synced while the first load is still reading is not lost when the load lands', async () => {
    const documents = new Map<string, SearchDocument>();
    const log: Array<{ seq: number; recipeId: string }> = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let loads = 0;
    const feed = new RecipeSearchFeed(
      {
        searchLog: async () => ({ last: Math.max(0, ...log.map((c) => c.seq)), gaps: [] }),
        searchDocuments: async (ids: readonly string[]) =>
          [...documents.values()].filter((d) => ids.includes(d.id)),
        sharedSearchDocuments: async (after: string | undefined) => {
          if (after !== undefined) return [];
          const found = [...documents.values()];
          if (loads++ === 0) await held; // the first load read the table before the write
          return found;
        },
        searchChanges: async (after: number) => log.filter((c) => c.seq > after),
        pruneSearchChanges: async () => undefined,
        stemQuery: async (text: string) => `'${text.replace(':*', '')}'`,
        privateSearchDocuments: async () => ({ documents: [], total: 0 }),
        sharedRecipeCount: async () => documents.size,
        hasRankingIndex: async () => false,
        databaseSearch: async () => ({ documents: [], total: 0 }), // within budget: never asked
        favouriteIds: async () => [],
        favouritesAmong: async () => new Set<string>(),
      },
      { pollMs: 60_000 },
    );
    const searching = feed.search({ tsQuery: 'stew' }, undefined, PAGE);
    await new Promise((resolve) => setTimeout(resolve, 10));
    documents.set('x', doc('x', 'Stew', "'stew':1A"));
    log.push({ seq: 1, recipeId: 'x' });
    const synced = feed.sync();
    await new Promise((resolve) => setTimeout(resolve, 10)); // a read not waiting for the load is done by now
    release();
    await searching;
    await synced;
    expect(idsOf(await feed.search({ tsQuery: 'stew' }, undefined, PAGE)).ids).toEqual(['x']);
    feed.close();
  });

  it('answers from the database while its first load runs, retries a failed load, then answers from the index', async () => {
    const stew = doc('x', 'Stew', "'stew':1A");
    let release!: () => void;
    let held = new Promise<void>((resolve) => (release = resolve));
    let loads = 0;
    const askedDatabase: string[] = [];
    const reported: unknown[] = [];
    const feed = new RecipeSearchFeed(
      {
        searchLog: async () => ({ last: 0, gaps: [] }),
        searchDocuments: async () => [],
        sharedSearchDocuments: async (after: string | undefined) => {
          if (after !== undefined) return [];
          loads += 1;
          await held;
          if (loads === 1) throw new Error('connection lost');
          return [stew];
        },
        searchChanges: async () => [],
        pruneSearchChanges: async () => undefined,
        stemQuery: async (text: string) => `'${text}'`,
        privateSearchDocuments: async () => ({ documents: [], total: 0 }),
        sharedRecipeCount: async () => 1,
        hasRankingIndex: async () => false,
        databaseSearch: async (_viewer, _filters, terms) => {
          askedDatabase.push(terms?.[0]?.lexeme ?? '');
          return { documents: [{ document: stew, score: 0.5 }], total: 1 };
        },
        favouriteIds: async () => [],
        favouritesAmong: async () => new Set<string>(),
      },
      { pollMs: 60_000, onError: (error) => reported.push(error) },
    );
    // The load is held: the search does not wait for it.
    expect(idsOf(await feed.search({ tsQuery: 'stew' }, undefined, PAGE))).toEqual({ ids: ['x'], total: 1 });
    expect(await feed.search({ tsQuery: 'soup' }, undefined, PAGE)).toMatchObject({ total: 1 });
    expect(feed.mode).toBe('loading');
    expect(loads).toBe(1); // one load for both searches
    release();
    await feed.loaded();
    expect(reported).toEqual([new Error('connection lost')]);
    expect(feed.mode).toBe('loading');
    // The next search starts the load again, and is answered by the database meanwhile.
    held = new Promise<void>((resolve) => (release = resolve));
    expect(idsOf(await feed.search({ tsQuery: 'stew' }, undefined, PAGE)).ids).toEqual(['x']);
    expect(loads).toBe(2);
    release();
    await feed.loaded();
    expect(feed.mode).toBe('memory');
    expect(idsOf(await feed.search({ tsQuery: 'soup' }, undefined, PAGE))).toEqual({ ids: [], total: 0 });
    expect(askedDatabase).toEqual(['stew', 'soup', 'stew']);
    feed.close();
  });
});

/** An instance after its first search: the index loaded (PostgreSQL answers until then). */
async function warm(feed: RecipeSearchFeed): Promise<void> {
  await feed.search({}, undefined, PAGE);
  await feed.loaded();
  expect(feed.mode).toBe('memory');
}

describe('the search index over the database', () => {
  let ctx: TestApp;
  let repo: RecipesRepository;

  beforeAll(async () => {
    ctx = await startTestApp();
    await ctx.services.ingredients.seedIngredients();
    await ctx.services.recipes.seedCatalog();
    repo = new RecipesRepository(ctx.database.db as unknown as Kysely<RecipesTables>);
  }, 120_000);

  afterAll(async () => {
    if (ctx) await ctx.close();
  });

  /** PostgreSQL answering the same search: ts_rank over the GIN index, then title and id. */
  const postgresSearch = async (q: string, filter: { cuisine?: string; maxTime?: number } = {}) => {
    const rows = await sql<{ id: string; total: number }>`
      select r.id, count(*) over ()::int as total from recipes r
      where (r.owner_id is null or r.is_public)
        and r.search @@ to_tsquery('english', ${tsQueryText(q)!})
        and (${filter.cuisine ?? null}::text is null or r.cuisine = ${filter.cuisine ?? null})
        and (${filter.maxTime ?? null}::int is null or r.total_time <= ${filter.maxTime ?? null})
      order by ts_rank(r.search, to_tsquery('english', ${tsQueryText(q)!})) desc, r.title, r.id
      limit 100`.execute(ctx.database.db);
    return { ids: rows.rows.map((r) => r.id), total: rows.rows[0]?.total ?? 0 };
  };

  it('ranks one word exactly as PostgreSQL ts_rank does, for every word of the catalog and as prefixes', async () => {
    const feed = new RecipeSearchFeed(repo);
    const words = await sql<{ word: string }>`
      select word from ts_stat('select search from recipes') order by ndoc desc, word limit 150`.execute(
      ctx.database.db,
    );
    // Single words only: for several, ts_rank weighs their proximity, which the index does not.
    const single = words.rows.map((r) => r.word).filter((w) => /^[a-z0-9]+$/.test(w));
    expect(single.length).toBeGreaterThan(100);
    const queries = single.flatMap((word) => [word, word.slice(0, 3)]);
    for (const q of queries) {
      const ours = idsOf(await feed.search({ tsQuery: tsQueryText(q) }, undefined, PAGE));
      expect({ q, ...ours }).toEqual({ q, ...(await postgresSearch(q)) });
    }
    for (const q of ['chicken', 'rice', 'tomat', 'egg']) {
      for (const filter of [{ cuisine: 'italian' }, { maxTime: 30 }]) {
        const ours = idsOf(await feed.search({ tsQuery: tsQueryText(q), ...filter }, undefined, PAGE));
        expect(ours).toEqual(await postgresSearch(q, filter));
      }
    }
    feed.close();
  });

  it.each([
    { mode: 'memory', budgetBytes: undefined },
    { mode: 'database', budgetBytes: 1 }, // past the budget: PostgreSQL answers
  ])(
    '$mode: answers every viewer, filter, word and page as one index of all recipes did',
    async ({ mode, budgetBytes }) => {
      const [cook, baker, guest] = await Promise.all([
        createUser(ctx, { tier: 'pro' }),
        createUser(ctx, { tier: 'pro' }),
        createUser(ctx),
      ]);
      // Private titles made of catalog words, so they interleave with shared recipes in every order.
      const kinds = [
        {
          title: 'Chicken Rice Bowl',
          cuisine: 'italian',
          difficulty: 'easy' as const,
          prep_time: 5,
          cook_time: 10,
        },
        {
          title: 'Tomato Soup',
          cuisine: 'french',
          difficulty: 'medium' as const,
          prep_time: 20,
          cook_time: 40,
        },
        {
          title: 'Aardvark Chicken Curry',
          cuisine: 'indian',
          difficulty: 'hard' as const,
          prep_time: 30,
          cook_time: 60,
        },
        {
          title: 'Egg Fried Rice',
          cuisine: 'chinese',
          difficulty: 'easy' as const,
          prep_time: 5,
          cook_time: 5,
        },
        {
          title: 'Zucchini Chicken Pasta',
          cuisine: 'italian',
          difficulty: 'easy' as const,
          prep_time: 10,
          cook_time: 15,
        },
      ];
      for (const [n, owner] of [cook, cook, baker, guest].entries()) {
        for (const kind of kinds) {
          await createRecipe(ctx, owner, { ...kind, description: `Soup of the house, batch ${n}.` });
        }
      }
      await createRecipe(ctx, baker, { ...kinds[0]!, title: 'Chicken Public Pie', is_public: true });

      const feed = new RecipeSearchFeed(repo, { pollMs: 60_000, budgetBytes });
      const all = await sql<{ id: string }>`select id from recipes`.execute(ctx.database.db);
      const everything = await repo.searchDocuments(all.rows.map((r) => r.id));
      const reference = new RecipeSearchIndex(); // what one index of every recipe answered before
      reference.load(everything);
      const viewers = [
        undefined,
        { id: cook.user.id, isAdmin: false },
        { id: baker.user.id, isAdmin: false },
        { id: guest.user.id, isAdmin: false },
        { id: guest.user.id, isAdmin: true },
      ];
      const queries = [
        {},
        { tsQuery: tsQueryText('chicken') },
        { tsQuery: tsQueryText('chick') },
        { tsQuery: tsQueryText('chicken rice') },
        { tsQuery: tsQueryText('soup') },
        { tsQuery: tsQueryText('the') },
        { tsQuery: tsQueryText("it's \\ o'clock: & | ! chicken") }, // quotes, a backslash, operators
        { cuisine: 'italian' },
        { tsQuery: tsQueryText('rice'), difficulty: 'easy' },
        { tsQuery: tsQueryText('soup'), maxTime: 30 },
        { dietary: 'vegetarian' },
        { tsQuery: tsQueryText('chicken'), mealType: 'dinner' },
      ];
      const pages = [
        { limit: 5, offset: 0 },
        { limit: 7, offset: 3 },
        { limit: 100, offset: 0 },
        { limit: 10, offset: 5_000 },
      ];
      for (const query of queries) {
        const { tsQuery, ...filters } = query;
        const terms = tsQuery === undefined ? undefined : parseQueryText(await repo.stemQuery(tsQuery));
        for (const viewer of viewers) {
          for (const page of pages) {
            const ours = idsOf(await feed.search(query, viewer, page));
            const before = idsOf(reference.search({ ...filters, terms }, viewer, page));
            expect({ query, viewer, page, ...ours }).toEqual({ query, viewer, page, ...before });
          }
        }
      }
      expect(everything.filter((d) => d.ownerId !== null && !d.isPublic).length).toBeGreaterThanOrEqual(20);
      await feed.loaded();
      expect(feed.mode).toBe(mode);
      // On PostgreSQL with the RUM extension installed, one-word searches above ordered by its index.
      const rum = await sql`select 1 from pg_available_extensions where name = 'rum'`.execute(
        ctx.database.db,
      );
      expect(await repo.hasRankingIndex()).toBe(rum.rows.length > 0);
      // The index holds the shared recipes only (none at all past the budget).
      const shared = everything.filter((d) => d.ownerId === null || d.isPublic).length;
      expect(feed.indexedRecipes).toBe(mode === 'memory' ? shared : 0);
      feed.close();
    },
  );

  it('turns to PostgreSQL when new shared recipes take the index past its budget, and still finds them', async () => {
    const shared = await repo.sharedRecipeCount();
    const feed = new RecipeSearchFeed(repo, {
      pollMs: 60_000,
      budgetBytes: (shared + 0.5) * BYTES_PER_INDEXED_RECIPE,
    });
    const find = async () => (await feed.search({ tsQuery: tsQueryText('marmoset') }, undefined, PAGE)).total;
    expect(await find()).toBe(0);
    await feed.loaded();
    expect(feed.mode).toBe('memory');
    const made = await createRecipe(ctx, null, { title: 'Marmoset Mousse' });
    await feed.sync();
    expect(feed.mode).toBe('database');
    expect(feed.indexedRecipes).toBe(0);
    expect(await find()).toBe(1);
    await sql`delete from recipes where id = ${made.id}`.execute(ctx.database.db);
    expect(await find()).toBe(0);
    feed.close();
  });

  it('finds where the change log stands in the database: its highest number and the numbers missing below it', async () => {
    const base = 9_000_000_000;
    const db = ctx.database.db;
    for (const seq of [base + 1, base + 2, base + 5, base + 9]) {
      await sql`insert into recipe_search_changes (seq, recipe_id) values (${seq}, gen_random_uuid())`.execute(
        db,
      );
    }
    try {
      const log = await repo.searchLog();
      expect(log.last).toBe(base + 9);
      expect(log.gaps).toEqual(
        expect.arrayContaining([
          [base + 3, base + 4],
          [base + 6, base + 8],
        ]),
      );
      expect(log.gaps.filter(([lo]) => lo > base)).toHaveLength(2);
    } finally {
      await sql`delete from recipe_search_changes where seq > ${base}`.execute(db);
    }
  });

  it("keeps an owner's private recipes between searches, and sees another instance's changes to them at its next read", async () => {
    const feed = new RecipeSearchFeed(repo, { pollMs: 60_000 });
    await warm(feed);
    const owner = await createUser(ctx, { tier: 'pro' });
    const viewer = { id: owner.user.id, isAdmin: false };
    const find = async (q: string, who: typeof viewer | undefined = viewer) =>
      idsOf(await feed.search({ tsQuery: tsQueryText(q) }, who, PAGE)).ids;
    const first = await createRecipe(ctx, owner, { title: 'Gecko Gumbo' });
    expect(await find('gecko')).toEqual([first.id]);
    // Written through another instance: this feed learns of it from the change log only.
    const second = await createRecipe(ctx, owner, { title: 'Gecko Goulash' });
    expect(await find('gecko')).toEqual([first.id]); // kept from the first search, not read yet
    await feed.sync();
    expect(await find('gecko')).toEqual([second.id, first.id]);
    await sql`update recipes set title = 'Newt Gumbo' where id = ${first.id}`.execute(ctx.database.db);
    await feed.sync();
    expect(await find('gecko')).toEqual([second.id]);
    expect(await find('newt')).toEqual([first.id]);
    await sql`update recipes set is_public = true where id = ${first.id}`.execute(ctx.database.db);
    await feed.sync();
    expect(await find('newt')).toEqual([first.id]); // once, from the shared index now
    expect(await find('newt', undefined)).toEqual([first.id]);
    await sql`delete from recipes where id = ${second.id}`.execute(ctx.database.db);
    await feed.sync();
    expect(await find('gecko')).toEqual([]);
    feed.close();
  });

  it("holds a searching user's favourites, and forgets them when another instance changes them or a recipe goes", async () => {
    const feed = new RecipeSearchFeed(repo, { pollMs: 60_000 });
    await warm(feed);
    const user = await createUser(ctx);
    const [a, b] = [await createRecipe(ctx, null), await createRecipe(ctx, null)];
    const among = async () => [...(await feed.favouritesAmong(user.user.id, [a.id, b.id]))].sort();
    const favourite = (id: string) =>
      sql`insert into recipe_favourites (user_id, recipe_id) values (${user.user.id}, ${id})`.execute(
        ctx.database.db,
      );
    await favourite(a.id);
    expect(await among()).toEqual([a.id]);
    await favourite(b.id); // through another instance: learnt from the change log only
    expect(await among()).toEqual([a.id]);
    await feed.sync();
    expect(await among()).toEqual([a.id, b.id].sort());
    await sql`delete from recipes where id = ${a.id}`.execute(ctx.database.db); // the favourite cascades
    await feed.sync();
    expect(await among()).toEqual([b.id]);
    await sql`delete from recipe_favourites where user_id = ${user.user.id}`.execute(ctx.database.db);
    await feed.sync();
    expect(await among()).toEqual([]);
    feed.forgetFavourites(user.user.id); // this instance's own change: no log read needed
    await favourite(b.id);
    expect(await among()).toEqual([b.id]);
    feed.close();
  });

  it("sees another instance's inserts, edits, visibility changes and deletes at its next read of the change log", async () => {
    const other = new RecipeSearchFeed(repo, { pollMs: 60_000 });
    await warm(other);
    const find = async (q: string) =>
      idsOf(await other.search({ tsQuery: tsQueryText(q) }, undefined, PAGE)).ids;
    expect(await find('quokka')).toEqual([]);
    const owner = await createUser(ctx, { tier: 'pro' });
    const made = await createRecipe(ctx, owner, { title: 'Quokka Stew', is_public: true });
    expect(await find('quokka')).toEqual([]); // not read yet
    await other.sync();
    expect(await find('quokka')).toEqual([made.id]);
    // The shown fields come from the index: ratings and images are in the change log too.
    await sql`update recipes set rating_count = 3, rating_sum = 13, images = '{https://img.example/q.png}'
              where id = ${made.id}`.execute(ctx.database.db);
    await other.sync();
    const [hit] = (await other.search({ tsQuery: tsQueryText('quokka') }, undefined, PAGE)).hits;
    expect(hit).toMatchObject({
      title: 'Quokka Stew',
      ratingCount: 3,
      ratingSum: 13,
      imageUrl: 'https://img.example/q.png',
    });
    await sql`update recipes set title = 'Wombat Stew' where id = ${made.id}`.execute(ctx.database.db);
    await other.sync();
    expect(await find('quokka')).toEqual([]);
    expect(await find('wombat')).toEqual([made.id]);
    await sql`update recipes set is_public = false where id = ${made.id}`.execute(ctx.database.db);
    await other.sync();
    expect(await find('wombat')).toEqual([]);
    const mine = idsOf(
      await other.search({ tsQuery: tsQueryText('wombat') }, { id: owner.user.id, isAdmin: false }, PAGE),
    );
    expect(mine.ids).toEqual([made.id]);
    await sql`delete from recipes where id = ${made.id}`.execute(ctx.database.db);
    await other.sync();
    expect(
      idsOf(
        await other.search({ tsQuery: tsQueryText('wombat') }, { id: owner.user.id, isAdmin: true }, PAGE),
      ).total,
    ).toBe(0);
    other.close();
  });

  it('misses no change of a transaction that commits after a later one was read (PostgreSQL)', async (test) => {
    if (!ctx.database.pool) {
      test.skip('needs concurrent transactions: runs with TEST_DATABASE_URL (PostgreSQL)');
      return;
    }
    const db = ctx.database.db as unknown as Kysely<RecipesTables>;
    const feed = new RecipeSearchFeed(repo, { pollMs: 60_000 });
    await warm(feed);
    const find = async (q: string) =>
      idsOf(await feed.search({ tsQuery: tsQueryText(q) }, undefined, PAGE)).total;
    expect(await find('platypus')).toBe(0);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const started = new Promise<void>((resolve) => (inserted = resolve));
    const slow = db.transaction().execute(async (trx) => {
      await sql`update recipes set title = 'Platypus Pie' where id = (
        select id from recipes where owner_id is null order by id limit 1)`.execute(trx);
      inserted();
      await held;
    });
    await started;
    // A later change commits first, and is read, while the first transaction is still open.
    await sql`update recipes set title = 'Echidna Tart' where id = (
      select id from recipes where owner_id is null order by id desc limit 1)`.execute(db);
    await feed.sync();
    expect(await find('echidna')).toBe(1);
    expect(await find('platypus')).toBe(0);
    release();
    await slow;
    await feed.sync();
    expect(await find('platypus')).toBe(1);
    feed.close();
  });
});
