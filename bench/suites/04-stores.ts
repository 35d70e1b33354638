import type { Kysely } from 'kysely';
import { FlyerReader } from '../../src/modules/stores/extraction/flyer-reader.ts';
import { PricingService } from '../../src/modules/stores/pricing.ts';
import { StoresRepository } from '../../src/modules/stores/repository.ts';
import type { StoresTables } from '../../src/modules/stores/tables.ts';
import { UnpdfReader } from '../../src/providers/pdf/unpdf-reader.ts';
import { multiPageFlyer } from '../../test/support/flyers.ts';
import { capturingDb, replay } from '../capture.ts';
import type { BenchContext } from '../context.ts';
import { sequentialLoad, type BenchRow, type LoadResult } from '../lib.ts';
import { benchUser } from '../seed/kitchen.ts';
import { seedStores } from '../seed/stores.ts';

/**
 * Issue "Stores, flyers and pricing":
 *   - extraction speed: a generated 20-page text flyer (pdf-lib) through the production reader
 *     (unpdf text layer + layout parser, no OCR, no LLM), pages per second over a few passes;
 *   - GET /api/shopping-list/optimize for a 100-item list against 50 stores and 20,000 live
 *     promotions, beside the raw driver replaying the SQL the pricing service issues.
 */
const PAGES = 20;
const STORES = 50;
const PROMOTIONS = 20_000;
const LIST_ITEMS = 100;

export const suite = {
  name: 'stores',
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    return [await extraction(ctx), await optimisation(ctx)];
  },
};

async function extraction(ctx: BenchContext): Promise<BenchRow> {
  const flyer = await multiPageFlyer(PAGES, 'Bench');
  const reader = new FlyerReader(new UnpdfReader(), undefined);
  const passes = ctx.quick ? 3 : 10;
  const pageMs: number[] = [];
  let offers = 0;
  const started = performance.now();
  for (let pass = 0; pass < passes; pass++) {
    const run = await reader.open(flyer.bytes, new Date());
    for (let n = 1; n <= run.pageCount; n++) {
      const t = performance.now();
      offers += (await run.extractPage(n)).length;
      pageMs.push(performance.now() - t);
    }
    await run.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const sorted = pageMs.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! * 10) / 10;
  return ctx.row({
    suite: 'stores',
    case: `flyer extraction, ${PAGES}-page text PDF (pages/s)`,
    rps: Math.round(((passes * PAGES) / seconds) * 10) / 10,
    p50: at(0.5),
    p99: at(0.99),
    errors: 0,
    note: `${passes} passes, opening included in pages/s; p50/p99 per page; ${offers / passes} offers found per pass (${PAGES} printed)`,
  });
}

async function optimisation(ctx: BenchContext): Promise<BenchRow> {
  const { storeIds } = await seedStores(ctx, { stores: STORES, promotions: PROMOTIONS });
  const { userId } = await benchUser(ctx, 'shopper-pro');
  await ctx.rawQuery(`update users set tier = 'pro' where id = $1`, [userId]);
  const [user] = (await ctx.rawQuery('select email from users where id = $1', [userId])) as {
    email: string;
  }[];
  const token = await ctx.built.deps.tokens.signAccess({
    id: userId,
    email: user!.email,
    tier: 'pro',
    isAdmin: false,
  });
  const { shopping, ingredients } = ctx.built.services;
  const all = await ingredients.all();
  for (let i = 0; i < LIST_ITEMS; i++) {
    const info = all[(i * 7) % all.length]!;
    await shopping.add(userId, {
      ingredientId: info.id,
      quantity: info.defaultUnit === 'piece' ? 2 : 500,
      unit: info.defaultUnit,
    });
  }

  const { db, captured } = capturingDb(ctx.database.db as unknown as Kysely<StoresTables>);
  const today = new Date().toISOString().slice(0, 10);
  const capturing = new PricingService(new StoresRepository(db), shopping, ingredients, () => today);
  const t = performance.now();
  await capturing.optimize(userId);
  const oneMs = performance.now() - t;
  // A request that takes a good part of a second would only measure queueing at 50 connections:
  // time such requests one at a time instead.
  const slow = oneMs > 250;
  const measure = (url: string, headers: Record<string, string> = {}): Promise<LoadResult> =>
    slow ? sequentialLoad(url, { headers, count: ctx.quick ? 5 : 20 }) : ctx.measure(url, { headers });
  const raw = await ctx.rawEndpoint(replay(ctx.rawQuery, captured));
  const reference = await measure(raw.url);
  await raw.close();
  const own = await measure(`${ctx.baseUrl}/api/shopping-list/optimize`, {
    authorization: `Bearer ${token}`,
  });
  const clean = own.errors === 0 && own.non2xx === 0;
  const isPg = ctx.databaseKind === 'postgres';
  return ctx.row({
    suite: 'stores',
    case: `GET /api/shopping-list/optimize (${LIST_ITEMS} items, ${STORES} stores, ${PROMOTIONS} promotions)`,
    ...own,
    reference: { name: 'raw driver, same SQL', rps: reference.rps, p99: reference.p99 },
    target: isPg ? 'p99 < 50 ms' : undefined,
    met: isPg ? clean && own.p99 < 50 : undefined,
    note: `${slow ? `sequential requests (one took ${Math.round(oneMs)} ms in process)` : '50 connections'}; ${captured.length} statements per request (${new Set(captured.map((q) => q.wave)).size} waves); ${storeIds.length} stores${clean ? '' : `; ${own.non2xx} non-2xx, ${own.errors} errors`}`,
  });
}
