import { RecipesRepository, tsQueryText } from '../../src/modules/recipes/repository.ts';
import { RecipesService } from '../../src/modules/recipes/service.ts';
import type { RecipesTables } from '../../src/modules/recipes/tables.ts';
import type { Kysely } from 'kysely';
import { capturingDb, replay, type CapturedQuery } from '../capture.ts';
import type { BenchContext } from '../context.ts';
import type { BenchRow, LoadResult } from '../lib.ts';
import { BENCH_SLUG_PREFIX, COMMON_TERM, SELECTIVE_TERM, seedBenchRecipes } from '../seed/recipes.ts';

/**
 * Issue "Recipes": search and detail over a 100,000-recipe catalog (10,000 with --quick), anonymous
 * callers, first page of 20 (the route's default). Search stands beside PostgreSQL alone answering
 * the same request (the GIN/ts_rank page and its count, then the summaries: what the in-memory
 * index replaced); detail beside the raw driver running the very SQL the repository issues
 * (captured from kysely, bench/capture.ts). Each reference is served by a minimal HTTP server
 * with the same concurrency. Nothing is cached: every request ranks, counts and reads afresh.
 */
const FULL_SIZE = 100_000;
const QUICK_SIZE = 10_000;
const PAGE = { limit: 20, offset: 0 };

type SearchQuery = Parameters<RecipesService['search']>[0];

interface SearchCase {
  name: string;
  query: string;
  filter: Omit<SearchQuery, 'limit' | 'offset'>;
}

const SEARCH_CASES: SearchCase[] = [
  {
    name: `search q=${SELECTIVE_TERM} (1 in 1,000)`,
    query: `q=${SELECTIVE_TERM}`,
    filter: { q: SELECTIVE_TERM },
  },
  { name: `search q=${COMMON_TERM} (1 in 12)`, query: `q=${COMMON_TERM}`, filter: { q: COMMON_TERM } },
  {
    name: 'filters only (category+difficulty+max_time+dietary)',
    query: 'category=italian&difficulty=easy&max_time=60&dietary=dairy_free',
    filter: { cuisine: 'italian', difficulty: 'easy', maxTime: 60, dietary: 'dairy_free' },
  },
];

/**
 * The same request answered by PostgreSQL alone, as the service answered it before its in-memory
 * index: the page ranked with ts_rank over the GIN index (or in title order) and its count, side by
 * side, then the page's summaries by primary key. The raw driver, no framework.
 */
function postgresAlone(ctx: BenchContext, filter: SearchCase['filter']): () => Promise<unknown> {
  const params: unknown[] = [];
  const where = ['(r.owner_id is null or r.is_public)'];
  const param = (value: unknown) => `$${params.push(value)}`;
  let order = 'r.title, r.id';
  if (filter.q) {
    const q = param(tsQueryText(filter.q));
    where.push(`r.search @@ to_tsquery('english', ${q})`);
    order = `ts_rank(r.search, to_tsquery('english', ${q})) desc, r.title, r.id`;
  }
  if (filter.cuisine) where.push(`r.cuisine = ${param(filter.cuisine)}`);
  if (filter.difficulty) where.push(`r.difficulty = ${param(filter.difficulty)}`);
  if (filter.maxTime !== undefined) where.push(`r.total_time <= ${param(filter.maxTime)}`);
  if (filter.dietary) where.push(`r.fits @> array[${param(filter.dietary)}]::text[]`);
  const from = `from recipes r where ${where.join(' and ')}`;
  return async () => {
    const [page] = await Promise.all([
      ctx.rawQuery(`select r.id ${from} order by ${order} limit ${PAGE.limit}`, params),
      ctx.rawQuery(`select count(*) ${from}`, params),
    ]);
    const ids = (page as { id: string }[]).map((row) => row.id);
    return ctx.rawQuery(
      `select id, title, description, cuisine, difficulty, prep_time, cook_time, servings, calories,
              rating_count, rating_sum, images[1] as image_url, false as is_favourite
       from recipes where id = any($1::uuid[])`,
      [ids],
    );
  };
}

/** The SQL the service issues for `work`, captured from kysely (the raw reference replays it). */
export async function captureServiceSql(
  ctx: BenchContext,
  work: (service: RecipesService) => Promise<unknown>,
): Promise<CapturedQuery[]> {
  const plain = ctx.database.db as unknown as Kysely<RecipesTables>;
  const { db, captured } = capturingDb(plain);
  const s = ctx.built.services;
  const service = new RecipesService({
    repo: new RecipesRepository(db),
    ingredients: s.ingredients,
    preferences: s.preferences,
    pantry: () => s.pantry,
  });
  await work(service);
  service.close();
  return [...captured];
}

/**
 * The first search starts the load of the in-memory index (PostgreSQL answers until it is done):
 * the cases measure the index, as an instance serves for its lifetime, not the load beside them.
 */
async function indexLoaded(ctx: BenchContext): Promise<void> {
  await fetch(`${ctx.baseUrl}/api/recipes?q=${COMMON_TERM}`);
  while (ctx.built.services.recipes.searchIndexState().mode === 'loading') {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const suite = {
  name: 'recipes',
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    const size = ctx.quick ? QUICK_SIZE : FULL_SIZE;
    const seeded = await seedBenchRecipes(ctx, size);
    const note = `${seeded.recipes} recipes, ${seeded.lines} lines (seeded in ${seeded.seconds} s)${ctx.quick ? '; --quick: 10,000 recipes, not 100,000' : ''}`;
    const isPg = ctx.databaseKind === 'postgres';
    const rows: BenchRow[] = [];

    const compare = async (
      caseName: string,
      url: string,
      raw: () => Promise<unknown>,
      referenceName: string,
      target: { label: string; met: (own: LoadResult, ref: LoadResult) => boolean },
    ) => {
      const server = await ctx.rawEndpoint(raw);
      const reference = await ctx.measure(server.url);
      await server.close();
      const own = await ctx.measure(url);
      const clean = own.errors === 0 && own.non2xx === 0;
      rows.push(
        ctx.row({
          suite: 'recipes',
          case: caseName,
          ...own,
          reference: { name: referenceName, rps: reference.rps, p99: reference.p99 },
          target: isPg ? target.label : undefined,
          met: isPg ? clean && target.met(own, reference) : undefined,
          note: rows.length === 0 ? note : clean ? undefined : `${own.non2xx} non-2xx answers`,
        }),
      );
    };

    await indexLoaded(ctx);
    for (const c of SEARCH_CASES) {
      await compare(
        `GET /api/recipes?${c.query}`,
        `${ctx.baseUrl}/api/recipes?${c.query}`,
        postgresAlone(ctx, c.filter),
        'PostgreSQL alone (GIN + ts_rank, count)',
        { label: 'p99 < 50 ms', met: (own) => own.p99 < 50 },
      );
    }

    // Detail of a recipe from the middle of the catalog: the row, then its lines (ingredient
    // facts come from the ingredients service's in-memory snapshot, as in the service).
    const [picked] = (await ctx.rawQuery('select id from recipes where slug = $1', [
      `${BENCH_SLUG_PREFIX}${Math.floor(size / 2)}`,
    ])) as { id: string }[];
    const id = picked!.id;
    const detailSql = await captureServiceSql(ctx, (service) => service.getDetail(id, undefined));
    await compare(
      'GET /api/recipes/:id',
      `${ctx.baseUrl}/api/recipes/${id}`,
      replay(ctx.rawQuery, detailSql),
      'raw driver, same SQL',
      {
        label: '>= 60% of raw',
        met: (own, ref) => own.rps >= 0.6 * ref.rps,
      },
    );
    return rows;
  },
};
