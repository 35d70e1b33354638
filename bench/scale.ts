import { readFileSync } from 'node:fs';
import pg from 'pg';
import { sql } from 'kysely';
import { npmStartFlags, startServiceProcess } from '../test/support/processes.ts';
import { buildApp } from '../src/app.ts';
import { parseConfig } from '../src/platform/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/platform/db/database.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import type { BenchContext } from './context.ts';
import { replay, type CapturedQuery } from './capture.ts';
import { load, rawServer, type BenchRow, type LoadResult } from './lib.ts';
import { captureServiceSql } from './suites/02-recipes.ts';
import {
  BENCH_SLUG_PREFIX,
  COMMON_TERM,
  SELECTIVE_TERM,
  seedBenchRecipes,
  seedPrivateRecipes,
} from './seed/recipes.ts';

/**
 * `npm run bench -- --recipes=1000000` (PostgreSQL: DATABASE_URL): a tenth of the recipes public
 * catalog, the rest private over as many users as public recipes (nine each on average), in a
 * database of their own (`mise_bench_<count>`, kept for the next run: seeding a million takes a
 * while; `--fresh` seeds again). Then a **separate service process** starts on it, as in
 * production, and is measured: time from start to the first answered search (it starts the load of
 * the in-memory index of shared recipes; PostgreSQL answers until that is done), then, once the
 * index is loaded, search at 50 clients (selective word, common word, filters only, and
 * a signed-in owner's query that merges their private recipes), and the process's RSS after that
 * warm-up.
 */
const JWT_SECRET = 'bench-scale-secret-bench-scale-secret!!';
const OWNER = { email: 'bench-scale-owner@bench.test', password: 'bench-scale-password', name: 'Owner' };
const TARGET_P99_MS = 50;
const TARGET_RSS_MB = 500;
const METRICS_TOKEN = 'scale-bench-metrics-token';
const TARGET_FIRST_SEARCH_S = 5;

export async function runScaleBench(total: number, options: { fresh: boolean }): Promise<BenchRow[]> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('--recipes needs PostgreSQL: set DATABASE_URL');
  const publicCount = Math.round(total / 10);
  const users = Math.max(1, publicCount);
  const url = await benchDatabase(adminUrl, `mise_bench_${total}`, options.fresh);
  const { note: seeded, detail } = await seed(url, publicCount, users, total - publicCount);

  const started = performance.now();
  const service = await startServiceProcess(
    {
      DATABASE_URL: url,
      JWT_SECRET,
      NODE_ENV: 'test',
      SEED_CATALOG: 'false',
      RUN_WORKERS: 'false',
      RATE_LIMIT_MAX: '100000000',
      AUTH_RATE_LIMIT_MAX: '100000000',
      LOG_LEVEL: 'warn',
      METRICS_TOKEN,
    },
    300_000,
    npmStartFlags(),
  );
  try {
    const firstSearchSeconds = await firstSearch(`${service.url}/api/recipes?q=${COMMON_TERM}`, started);
    const loadedSeconds = await indexLoaded(service.url, started);
    const token = await ownerWithPrivateRecipes(service.url, url);
    const cases: Array<{ name: string; path: string; headers?: Record<string, string> }> = [
      { name: `search q=${SELECTIVE_TERM} (1 in 1,000)`, path: `/api/recipes?q=${SELECTIVE_TERM}` },
      { name: `search q=${COMMON_TERM} (1 in 12)`, path: `/api/recipes?q=${COMMON_TERM}` },
      {
        name: 'filters only (category+difficulty+max_time+dietary)',
        path: '/api/recipes?category=italian&difficulty=easy&max_time=60&dietary=dairy_free',
      },
      {
        name: `owner's q=${COMMON_TERM} (their private recipes merged)`,
        path: `/api/recipes?q=${COMMON_TERM}`,
        headers: { authorization: `Bearer ${token}` },
      },
    ];
    const rows: BenchRow[] = [];
    for (const c of cases) {
      const options = { connections: 50, headers: c.headers ?? {} };
      await load(`${service.url}${c.path}`, { ...options, durationSeconds: 2 });
      const result: LoadResult = await load(`${service.url}${c.path}`, { ...options, durationSeconds: 10 });
      const clean = result.errors === 0 && result.non2xx === 0;
      rows.push({
        suite: 'scale',
        case: `GET ${c.path.replace(/\?.*/, '')} ${c.name}`,
        database: 'postgres',
        ...result,
        target: `p99 < ${TARGET_P99_MS} ms`,
        met: clean && result.p99 < TARGET_P99_MS,
        note:
          rows.length === 0
            ? `${seeded}; ${total.toLocaleString('en')} recipes, a separate service process`
            : clean
              ? undefined
              : `${result.non2xx} non-2xx answers`,
      });
    }
    rows.push(await detailRow(service.url, url, detail));
    const rssMb = residentMb(service.child.pid!);
    const heap = await heapFigures(service.url);
    rows.push(
      figure(
        'instance RSS after warm-up',
        `< ${TARGET_RSS_MB} MB`,
        rssMb <= TARGET_RSS_MB,
        `${rssMb} MB (${heap})`,
      ),
    );
    rows.push(
      figure(
        'start to first answered search',
        `< ${TARGET_FIRST_SEARCH_S} s`,
        firstSearchSeconds < TARGET_FIRST_SEARCH_S,
        `${firstSearchSeconds} s (process start, migrations checked; answered by PostgreSQL while the index loads), index of ${publicCount.toLocaleString('en')} shared recipes loaded ${loadedSeconds} s after start`,
      ),
    );
    return rows;
  } finally {
    await service.stop();
  }
}

function figure(name: string, target: string, met: boolean, value: string): BenchRow {
  return {
    suite: 'scale',
    case: name,
    database: 'postgres',
    rps: 0,
    p50: 0,
    p99: 0,
    errors: 0,
    target,
    met,
    note: value,
  };
}

/** The bench's own database, created when missing (dropped first with --fresh). */
async function benchDatabase(adminUrl: string, name: string, fresh: boolean): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    if (fresh) await admin.query(`drop database if exists ${name} with (force)`);
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The detail of a public recipe beside the raw driver running the SQL the service issues for it. */
async function detailRow(base: string, url: string, detail: Detail): Promise<BenchRow> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  try {
    const raw = await rawServer(
      replay(async (text, params) => (await pool.query(text, params)).rows, detail.sql),
    );
    const options = { connections: 50, durationSeconds: 10 };
    await load(raw.url, { ...options, durationSeconds: 2 });
    const reference = await load(raw.url, options);
    await raw.close();
    const target = `${base}/api/recipes/${detail.id}`;
    await load(target, { ...options, durationSeconds: 2 });
    const own = await load(target, options);
    const clean = own.errors === 0 && own.non2xx === 0;
    return {
      suite: 'scale',
      case: 'GET /api/recipes/:id',
      database: 'postgres',
      ...own,
      reference: { name: 'raw driver, same SQL', rps: reference.rps, p99: reference.p99 },
      target: '>= 60% of raw',
      met: clean && own.rps >= 0.6 * reference.rps,
    };
  } finally {
    await pool.end();
  }
}

interface Detail {
  id: string;
  sql: CapturedQuery[];
}

async function seed(
  url: string,
  publicCount: number,
  users: number,
  privateCount: number,
): Promise<{ note: string; detail: Detail }> {
  const database = await openDatabase({ url, poolSize: 4 });
  try {
    await migrateToLatest(database.db);
    const config = parseConfig({ NODE_ENV: 'test', SEED_CATALOG: 'false', RUN_WORKERS: 'false' });
    const built = await buildApp({ config, database, jwtSecret: JWT_SECRET, logger: false });
    try {
      const settle = () => settleDatabase(database);
      const shared = await seedBenchRecipes(
        { built, database, settle } as unknown as BenchContext,
        publicCount,
      );
      const own = await seedPrivateRecipes({ database, settle }, users, privateCount);
      const [middle] = (
        await sql<{
          id: string;
        }>`select id from recipes where slug = ${`${BENCH_SLUG_PREFIX}${Math.ceil(publicCount / 2)}`}`.execute(
          database.db,
        )
      ).rows;
      const context = { built, database } as unknown as BenchContext;
      const detail = {
        id: middle!.id,
        sql: await captureServiceSql(context, (service) => service.getDetail(middle!.id, undefined)),
      };
      const note = `${shared.recipes.toLocaleString('en')} recipes in the database (public seeded in ${shared.seconds} s, ${own.recipes.toLocaleString('en')} private over ${own.users.toLocaleString('en')} users in ${own.seconds} s)`;
      return { note, detail };
    } finally {
      await built.app.close();
    }
  } finally {
    await database.close();
  }
}

/** The seed's dirty pages written and autovacuum done, so that the measured instance runs alone. */
async function settleDatabase(database: DatabaseHandle): Promise<void> {
  await sql`checkpoint`.execute(database.db);
  for (let waited = 0; waited < 300_000; waited += 1_000) {
    const busy = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity where backend_type = 'autovacuum worker'`.execute(
      database.db,
    );
    if (busy.rows[0]!.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Seconds from `started` until the route first answers 200 (PostgreSQL answers while the index loads). */
async function firstSearch(url: string, started: number): Promise<number> {
  for (;;) {
    const res = await fetch(url).catch(() => undefined);
    if (res?.status === 200) return Math.round((performance.now() - started) / 100) / 10;
    if (res && res.status !== 503)
      throw new Error(`first search answered ${res.status}: ${await res.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A signed-in owner with as many private recipes as an average user (nine), a third of them with
 * the common word: their search merges them into the shared ranking.
 */
async function ownerWithPrivateRecipes(base: string, url: string): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  let res = await post('/api/auth/login', { email: OWNER.email, password: OWNER.password });
  if (res.status !== 200) {
    const registered = await post('/api/auth/register', OWNER);
    if (registered.status !== 201)
      throw new Error(`owner registration: ${registered.status} ${await registered.text()}`);
    res = await post('/api/auth/login', { email: OWNER.email, password: OWNER.password });
  }
  const token = ((await res.json()) as { access_token: string }).access_token;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `insert into recipes (owner_id, title, description, cuisine, difficulty, prep_time, cook_time, servings,
         meal_types, is_public, steps)
       select u.id, (array['Grandma''s ${COMMON_TERM}', 'Tuesday stew', 'Quick salad'])[1 + n % 3] || ' ' || n,
              'From my notebook.', 'italian', 'easy', 10, 20, 2, array['dinner'], false, array['Cook.']
       from users u, generate_series(1, 9) n
       where u.email = $1 and not exists (select 1 from recipes r where r.owner_id = u.id)`,
      [OWNER.email],
    );
  } finally {
    await client.end();
  }
  return token;
}

/** Where the memory is, from the service's own metrics: V8's heap (used of committed) and buffers. */
/**
 * Seconds from `started` until the instance's search index is loaded (its metrics gauge leaves
 * 'loading'), so that search is measured as it runs for the instance's lifetime.
 */
async function indexLoaded(base: string, started: number): Promise<number> {
  for (;;) {
    const res = await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const mode = /^mise_search_index_recipes\{mode="(\w+)"\}/m.exec(await res.text())?.[1];
    if (mode && mode !== 'loading') return Math.round((performance.now() - started) / 100) / 10;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function heapFigures(base: string): Promise<string> {
  const res = await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const mb = (name: string) => {
    const value = new RegExp(`^mise_${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1];
    return value === undefined ? '?' : String(Math.round(Number(value) / 1048576));
  };
  return `V8 heap ${mb('nodejs_heap_size_used_bytes')} MB used of ${mb('nodejs_heap_size_total_bytes')} MB, external ${mb('nodejs_external_memory_bytes')} MB`;
}

function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}
