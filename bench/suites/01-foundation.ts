import type { BenchContext } from '../context.ts';
import type { BenchRow } from '../lib.ts';

/** Issue "Service foundation": login and an authenticated GET /api/me beside the bare route and raw driver. */
export const suite = {
  name: 'foundation',
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    const { accounts } = ctx.built.services;
    const email = `bench-${Date.now()}@example.test`;
    const user = await accounts.register({ email, password: 'bench-password', name: 'Bench' });
    const token = await ctx.built.deps.tokens.signAccess({
      id: user.id,
      email,
      tier: 'free',
      isAdmin: false,
    });
    const rows: BenchRow[] = [];

    const bare = await ctx.measure(ctx.bareUrl);
    rows.push(ctx.row({ suite: 'foundation', case: 'bare fastify GET', ...bare }));

    // Raw driver: the same indexed lookup GET /api/me performs, behind a minimal HTTP server.
    const raw = await ctx.rawEndpoint(async () =>
      ctx.rawQuery('select * from users where id = $1', [user.id]),
    );
    const rawResult = await ctx.measure(raw.url);
    await raw.close();
    const me = await ctx.measure(`${ctx.baseUrl}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    const ratio = me.rps / Math.max(1, rawResult.rps);
    rows.push(
      ctx.row({
        suite: 'foundation',
        case: 'GET /api/me',
        ...me,
        reference: { name: 'raw driver', rps: rawResult.rps, p99: rawResult.p99 },
        target: ctx.databaseKind === 'postgres' ? '>= 60% of raw' : undefined,
        met: ctx.databaseKind === 'postgres' ? ratio >= 0.6 && me.errors === 0 && me.non2xx === 0 : undefined,
      }),
    );

    const login = await ctx.measure(`${ctx.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'bench-password' }),
      connections: 10,
    });
    rows.push(
      ctx.row({
        suite: 'foundation',
        case: 'POST /api/auth/login (argon2id)',
        ...login,
        reference: { name: 'bare fastify', rps: bare.rps, p99: bare.p99 },
        note: 'bound by argon2id (m=19 MiB, t=2) by design',
      }),
    );
    return rows;
  },
};
