import type { Kysely } from 'kysely';
import { PantryRepository } from '../../src/modules/pantry/repository.ts';
import type { PantryTables } from '../../src/modules/pantry/tables.ts';
import { capturingDb, replay } from '../capture.ts';
import type { BenchContext } from '../context.ts';
import type { BenchRow } from '../lib.ts';
import { seedKitchen } from '../seed/kitchen.ts';

/**
 * Issue "Pantry, shopping list, meal plans": shopping-list generation from a 21-slot plan against a
 * 300-row pantry, and the inventory list of a 1,000-row pantry.
 *
 * Generation is a POST that mutates; generating again from the same plan replaces that plan's
 * previous contribution (idempotent by design), so it is measured by posting it over and over. One
 * user's generations run one after another by design (the list is locked for the merge), so it is
 * measured with one connection: its p99 is the latency a user sees. The reference is the bare
 * route at the same concurrency.
 */
export const suite = {
  name: 'kitchen',
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    const isPg = ctx.databaseKind === 'postgres';
    const rows: BenchRow[] = [];

    const planner = await seedKitchen(ctx, { label: 'planner', pantryRows: 300, withPlan: true });
    const auth = { authorization: `Bearer ${planner.token}` };
    const bareOne = await ctx.measure(ctx.bareUrl, { connections: 1 });
    const generate = await ctx.measure(`${ctx.baseUrl}/api/shopping-list/generate`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ meal_plan_id: planner.planId }),
      connections: 1,
    });
    const clean = generate.errors === 0 && generate.non2xx === 0;
    rows.push(
      ctx.row({
        suite: 'kitchen',
        case: 'POST /api/shopping-list/generate (21 slots, 300 pantry rows)',
        ...generate,
        reference: { name: 'bare fastify, 1 conn', rps: bareOne.rps, p99: bareOne.p99 },
        target: isPg ? 'p99 < 20 ms' : undefined,
        met: isPg ? clean && generate.p99 < 20 : undefined,
        note: `1 connection (one user's generations are serialised by the list lock)${clean ? '' : `; ${generate.non2xx} non-2xx`}`,
      }),
    );

    const stocked = await seedKitchen(ctx, { label: 'stocked', pantryRows: 1000, withPlan: false });
    const { db, captured } = capturingDb(ctx.database.db as unknown as Kysely<PantryTables>);
    await new PantryRepository(db).list(stocked.userId, {});
    const raw = await ctx.rawEndpoint(replay(ctx.rawQuery, captured));
    const reference = await ctx.measure(raw.url);
    await raw.close();
    const inventory = await ctx.measure(`${ctx.baseUrl}/api/inventory`, {
      headers: { authorization: `Bearer ${stocked.token}` },
    });
    rows.push(
      ctx.row({
        suite: 'kitchen',
        case: 'GET /api/inventory (1,000 rows)',
        ...inventory,
        reference: { name: 'raw driver, same SQL', rps: reference.rps, p99: reference.p99 },
        note: inventory.non2xx ? `${inventory.non2xx} non-2xx` : undefined,
      }),
    );

    // Issue 16: the same pantry a page at a time (what a client scrolling it asks for).
    const paging = capturingDb(ctx.database.db as unknown as Kysely<PantryTables>);
    const cutoff = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await new PantryRepository(paging.db).listPage(stocked.userId, {}, cutoff, { limit: 50, offset: 0 });
    const rawPage = await ctx.rawEndpoint(replay(ctx.rawQuery, paging.captured));
    const pageReference = await ctx.measure(rawPage.url);
    await rawPage.close();
    const paged = await ctx.measure(`${ctx.baseUrl}/api/inventory?limit=50&offset=100`, {
      headers: { authorization: `Bearer ${stocked.token}` },
    });
    const pagedClean = paged.errors === 0 && paged.non2xx === 0;
    rows.push(
      ctx.row({
        suite: 'kitchen',
        case: 'GET /api/inventory?limit=50 (1,000 rows, 50 connections)',
        ...paged,
        reference: { name: 'raw driver, same SQL', rps: pageReference.rps, p99: pageReference.p99 },
        target: isPg ? 'p99 < 50 ms' : undefined,
        met: isPg ? pagedClean && paged.p99 < 50 : undefined,
        note: pagedClean
          ? 'one user asking again: the page comes from the listing cache while the pantry version (one primary-key read) is unchanged; the reference runs the page and its counts every time'
          : `${paged.non2xx} non-2xx`,
      }),
    );
    return rows;
  },
};
