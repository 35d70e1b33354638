import type { BenchContext } from '../context.ts';
import { sequentialLoad, type BenchRow } from '../lib.ts';
import { weekStartOf } from '../../src/modules/meal-plans/week.ts';
import { benchUser } from '../seed/kitchen.ts';
import { seedBenchRecipes } from '../seed/recipes.ts';
import { startLoopbackModel } from '../loopback-model.ts';

/**
 * Issue "AI": meal-plan generation over the synthetic catalog (100,000 recipes; 10,000 with
 * --quick) without a language model, i.e. the constraint planner alone. A Pro user regenerates the
 * same week (replace: true) over and over, one request at a time: the latency a user sees (one
 * user's regenerations of one week replace each other, so concurrency on one user measures
 * locking, not the planner).
 *
 * Chat overhead: POST /api/chat on a second instance of the service whose model is a loopback
 * server answering at once; the model's own time (measured inside it) is subtracted, what is left
 * is the service's: sessions, history, prompt building, usage accounting, the HTTP call itself.
 */
const FULL_SIZE = 100_000;
const QUICK_SIZE = 10_000;
const GENERATE_WARMUP = 3;

export const suite = {
  name: 'ai',
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    const size = ctx.quick ? QUICK_SIZE : FULL_SIZE;
    const seeded = await seedBenchRecipes(ctx, size);
    const isPg = ctx.databaseKind === 'postgres';
    const { userId } = await benchUser(ctx, 'planner-pro');
    await ctx.rawQuery(`update users set tier = 'pro' where id = $1`, [userId]);
    const user = (await ctx.rawQuery('select email from users where id = $1', [userId])) as {
      email: string;
    }[];
    const token = await ctx.built.deps.tokens.signAccess({
      id: userId,
      email: user[0]!.email,
      tier: 'pro',
      isAdmin: false,
    });
    const bareOne = await ctx.measure(ctx.bareUrl, { connections: 1 });
    // Sequential requests timed one by one, after a few untimed ones: as for the chat case, the
    // steady state is measured, not the first request's one-off work (JIT, the ingredient cache,
    // cold index pages).
    const request = {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ week_start: weekStartOf(new Date()), replace: true }),
    };
    const url = `${ctx.baseUrl}/api/meal-plans/generate`;
    await sequentialLoad(url, { ...request, count: GENERATE_WARMUP });
    const generate = await sequentialLoad(url, { ...request, count: ctx.quick ? 10 : 50 });
    const clean = generate.errors === 0 && generate.non2xx === 0 && generate.requests > 0;
    const chat = await chatOverhead(ctx, token);
    return [
      ctx.row({
        suite: 'ai',
        case: 'POST /api/meal-plans/generate (no LLM)',
        ...generate,
        reference: { name: 'bare fastify, 1 conn', rps: bareOne.rps, p99: bareOne.p99 },
        target: isPg ? 'p99 < 200 ms' : undefined,
        met: isPg ? clean && generate.p99 < 200 : undefined,
        note: `${seeded.recipes} recipes in the catalog${ctx.quick ? ' (--quick: 10,000, not 100,000)' : ''}; ${generate.requests} sequential requests after ${GENERATE_WARMUP} untimed${clean ? '' : `; ${generate.non2xx} non-2xx, ${generate.errors} errors`}`,
      }),
      chat,
    ];
  },
};

async function chatOverhead(ctx: BenchContext, token: string): Promise<BenchRow> {
  const model = await startLoopbackModel();
  const instance = await ctx.startApp({
    LLM_BASE_URL: model.baseUrl,
    LLM_API_KEY: 'bench',
    CHAT_MODEL: 'loopback',
  });
  try {
    const url = `${instance.baseUrl}/api/chat`;
    const options = {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'What can I cook tonight?' }),
      connections: 1,
    };
    await ctx.measure(url, { ...options, durationSeconds: 1, warmupSeconds: 0 }); // warm-up
    model.reset(); // the model's counters must cover exactly the measured requests
    const result = await ctx.measure(url, { ...options, warmupSeconds: 0 });
    const perRequestModelMs = result.requests > 0 ? model.modelMs() / result.requests : 0;
    const callsPerRequest = result.requests > 0 ? model.calls() / result.requests : 0;
    const overheadP99 = Math.round((result.p99 - perRequestModelMs) * 10) / 10;
    const clean = result.errors === 0 && result.non2xx === 0 && result.requests > 0;
    const isPg = ctx.databaseKind === 'postgres';
    return ctx.row({
      suite: 'ai',
      case: 'POST /api/chat overhead (loopback model)',
      ...result,
      target: isPg ? 'p99 - model < 20 ms' : undefined,
      met: isPg ? clean && overheadP99 < 20 : undefined,
      note: `overhead p99 ${overheadP99} ms = p99 ${result.p99} ms - model ${perRequestModelMs.toFixed(2)} ms per request (${callsPerRequest.toFixed(1)} model calls each); 1 connection, Pro user${clean ? '' : `; ${result.non2xx} non-2xx, ${result.errors} errors`}`,
    });
  } finally {
    await instance.close();
    await model.close();
  }
}
