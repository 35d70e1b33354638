import type { Kysely } from 'kysely';
import { FlyerReader } from '../../src/modules/stores/extraction/flyer-reader.ts';
import { PricingService } from '../../src/modules/stores/pricing.ts';
import { StoresRepository } from '../../src/modules/stores/repository.ts';
import type { StoresTables } from '../../src/modules/stores/tables.ts';
import { UnpdfReader } from '../../src/providers/pdf/unpdf-reader.ts';
import { multiPageFlyer } from '../../test/support/flyers.ts';
import { capturingDb, replay } from '../capture.ts';
import type { BenchContext } from '../context.ts';
import { sequentialLoad, type BenchRow } from '../lib.ts';
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
    return [await extraction(ctx), ...(await optimisation(ctx))];
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

async function optimisation(ctx: BenchContext): Promise<BenchRow[]> {
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

  // The seed inserts live promotions directly: the first pricing of the list resolves its
  // ingredients' promotion matches (once, as after any catalog change). Measure the steady state.
  await ctx.built.services.pricing.optimize(userId);

  const { db, captured } = capturingDb(ctx.database.db as unknown as Kysely<StoresTables>);
  const today = new Date().toISOString().slice(0, 10);
  const capturing = new PricingService(new StoresRepository(db), shopping, ingredients, () => today);
  const t = performance.now();
  await capturing.optimize(userId);
  const oneMs = performance.now() - t;
  // Judged as the latency one user sees (one connection, like list generation: a user's optimise
  // requests do not overlap); the same route at 50 connections is shown beside it for throughput.
  const slow = oneMs > 250;
  const measure = (url: string, connections: number, headers: Record<string, string> = {}) =>
    slow
      ? sequentialLoad(url, { headers, count: ctx.quick ? 5 : 20 })
      : ctx.measure(url, { headers, connections });
  const url = `${ctx.baseUrl}/api/shopping-list/optimize`;
  const auth = { authorization: `Bearer ${token}` };
  const raw = await ctx.rawEndpoint(replay(ctx.rawQuery, captured));
  const reference = await measure(raw.url, 1);
  const reference50 = await measure(raw.url, 50);
  await raw.close();
  const own = await measure(url, 1, auth);
  const own50 = await measure(url, 50, auth);
  const clean = own.errors === 0 && own.non2xx === 0;
  const isPg = ctx.databaseKind === 'postgres';
  const shape = `${captured.length} statements per request (${new Set(captured.map((q) => q.wave)).size} waves); ${storeIds.length} stores`;
  const name = `GET /api/shopping-list/optimize (${LIST_ITEMS} items, ${STORES} stores, ${PROMOTIONS} promotions)`;
  return [
    ctx.row({
      suite: 'stores',
      case: name,
      ...own,
      reference: { name: 'raw driver, same SQL', rps: reference.rps, p99: reference.p99 },
      target: isPg ? 'p99 < 50 ms' : undefined,
      met: isPg ? clean && own.p99 < 50 : undefined,
      note: `${slow ? `sequential requests (one took ${Math.round(oneMs)} ms in process)` : '1 connection'}; ${shape}${clean ? '' : `; ${own.non2xx} non-2xx, ${own.errors} errors`}`,
    }),
    ctx.row({
      suite: 'stores',
      case: '  same, 50 connections (throughput)',
      ...own50,
      reference: { name: 'raw driver, same SQL', rps: reference50.rps, p99: reference50.p99 },
      note: slow ? 'sequential requests' : '50 connections: p99 is queueing behind the database',
    }),
  ];
}
