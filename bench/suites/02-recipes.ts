import { RecipesRepository } from '../../src/modules/recipes/repository.ts';
import { RecipesService } from '../../src/modules/recipes/service.ts';
import type { RecipesTables } from '../../src/modules/recipes/tables.ts';
import type { Kysely } from 'kysely';
import { capturingDb, replay, type CapturedQuery } from '../capture.ts';
import type { BenchContext } from '../context.ts';
import type { BenchRow, LoadResult } from '../lib.ts';
import { BENCH_SLUG_PREFIX, COMMON_TERM, SELECTIVE_TERM, seedBenchRecipes } from '../seed/recipes.ts';

/**
 * Issue "Recipes": search and detail over a 100,000-recipe catalog (10,000 with --quick), each
 * beside the raw driver running the very SQL the repository issues (captured from kysely) behind a
 * minimal HTTP server with the same concurrency (bench/capture.ts). Anonymous callers, first page of 20 (the route's default).
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
 * A recipes service on a capturing database with its search cache off: what one request costs on
 * a cache miss, and the statements it issues (captured per call, in order).
 */
function uncachedService(
  ctx: BenchContext,
  capture = true,
): { service: RecipesService; captured: CapturedQuery[] } {
  const plain = ctx.database.db as unknown as Kysely<RecipesTables>;
  const { db, captured } = capture ? capturingDb(plain) : { db: plain, captured: [] };
  const s = ctx.built.services;
  const service = new RecipesService({
    repo: new RecipesRepository(db),
    ingredients: s.ingredients,
    preferences: s.preferences,
    pantry: () => s.pantry,
    searchCacheTtlMs: 0,
  });
  return { service, captured };
}

async function captureServiceSql(
  ctx: BenchContext,
  work: (service: RecipesService) => Promise<unknown>,
): Promise<CapturedQuery[]> {
  const { service, captured } = uncachedService(ctx);
  await work(service);
  return [...captured];
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
          reference: { name: 'raw driver, same SQL', rps: reference.rps, p99: reference.p99 },
          target: isPg ? target.label : undefined,
          met: isPg ? clean && target.met(own, reference) : undefined,
          note: rows.length === 0 ? note : clean ? undefined : `${own.non2xx} non-2xx answers`,
        }),
      );
    };

    for (const c of SEARCH_CASES) {
      const raw = replay(
        ctx.rawQuery,
        await captureServiceSql(ctx, (service) => service.search({ ...c.filter, ...PAGE }, undefined)),
      );
      await compare(`GET /api/recipes?${c.query}`, `${ctx.baseUrl}/api/recipes?${c.query}`, raw, {
        label: 'p99 < 50 ms',
        met: (own) => own.p99 < 50,
      });
      // The route above repeats one query, so after the first request it is served from the
      // search cache; a query nobody asked in the last 10 s costs this (service, cache off, no framework).
      const miss = uncachedService(ctx, false).service;
      const missServer = await ctx.rawEndpoint(() => miss.search({ ...c.filter, ...PAGE }, undefined));
      await compare(`  same, cache miss (service without cache)`, missServer.url, raw, {
        label: 'p99 < 50 ms',
        met: (own) => own.p99 < 50,
      });
      await missServer.close();
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
      {
        label: '>= 60% of raw',
        met: (own, ref) => own.rps >= 0.6 * ref.rps,
      },
    );
    return rows;
  },
};
