import { readFileSync } from 'node:fs';
import { npmStartFlags, startServiceProcess } from '../test/support/processes.ts';

/**
 * Mixed workload against a real service process: browsing and searching recipes, pantry edits,
 * shopping list, plan reads and chat against a loopback model. Reports errors, p50/p99 per route
 * and the service's memory over time, with a growth trend over the second half of the run.
 *
 *   npm run load -- [--clients=200] [--duration=60] [--quick]
 *   npm run load -- --soak [--duration=3600] [--clients=100] [--snapshots] [--memory-advisory]
 * Uses DATABASE_URL when set (a fresh database is recommended), otherwise an embedded one.
 *
 * --soak judges a long run: zero errors, the RSS trend over the second half within ±0.05 MB/s,
 * and p99 steady (the second half's p99 at most 1.5× the first half's, the first tenth being
 * warm-up). When memory still grows (or with --snapshots), two heap snapshots of the service (before and after a further
 * probe load) are compared by constructor and the biggest growers printed.
 * --memory-advisory (CI's few-minute soak) prints the memory verdict without failing on it: V8 grows
 * its heap in steps of ~32 MB, and one step inside a two-minute half is 0.27 MB/s by itself.
 */
const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const quick = process.argv.includes('--quick');
const soak = process.argv.includes('--soak');
const memoryAdvisory = process.argv.includes('--memory-advisory');
const CLIENTS = arg('clients', quick ? 40 : soak ? 100 : 200);
const DURATION_S = arg('duration', quick ? 10 : soak ? 3600 : 60);
const SNAPSHOT_DIR = `/tmp/mise-soak-${Date.now()}`;

const METRICS_TOKEN = 'load-metrics-token-0123456789';
const fakeModel = await startFakeChatModel();
const service = await startServiceProcess(
  {
    DATA_DIR: `/tmp/mise-load-${Date.now()}`,
    RATE_LIMIT_MAX: '100000000',
    AUTH_RATE_LIMIT_MAX: '100000000',
    LLM_BASE_URL: fakeModel.url,
    LLM_API_KEY: 'load-test',
    CHAT_MODEL: 'loopback',
    LOG_LEVEL: 'error',
    // The service's own count of the load, scraped before and after (GET /api/metrics).
    METRICS_TOKEN,
    MODEL_PRICES: 'loopback=0.15/0.6',
    // A soak may need heap snapshots of the service: SIGUSR2 writes one into SNAPSHOT_DIR.
    ...(soak ? { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${SNAPSHOT_DIR}` } : {}),
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  },
  60_000,
  npmStartFlags(),
); // run as `npm start` runs it
const base = service.url;

interface Session {
  token: string;
  /** The refresh cookie, as a browser keeps it: access tokens last 15 minutes. */
  refreshCookie: string;
  recipeIds: string[];
  ingredientIds: number[];
  planId?: string;
}

async function call(method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return {
    status: res.status,
    json: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined,
  };
}

async function newSession(i: number): Promise<Session> {
  const email = `load-${Date.now()}-${i}@example.test`;
  await call('POST', '/api/auth/register', undefined, {
    email,
    password: 'load-password',
    name: `Load ${i}`,
  });
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'load-password' }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const refreshCookie = cookieOf(login);
  const recipes = await call('GET', '/api/recipes?limit=50', token);
  const ingredients = await call('GET', '/api/ingredients?limit=50', token);
  const week = mondayOf(new Date());
  const plan = await call('POST', '/api/meal-plans', token, { week_start: week });
  return {
    token,
    refreshCookie,
    recipeIds: (recipes.json?.items ?? []).map((r: { id: string }) => r.id),
    ingredientIds: (ingredients.json?.items ?? []).map((r: { id: number }) => r.id),
    planId: plan.json?.id,
  };
}

const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const TERMS = ['chicken', 'tomato', 'rice', 'vegan', 'soup', 'curry', 'pasta', 'salad', 'egg', 'beans'];

/** One user action: [route label, request]. Weights approximate a browsing-heavy app. */
const actions: { weight: number; label: string; run(s: Session): Promise<{ status: number }> }[] = [
  {
    weight: 25,
    label: 'GET /api/recipes?q',
    run: (s) => call('GET', `/api/recipes?q=${pick(TERMS)}`, s.token),
  },
  {
    weight: 10,
    label: 'GET /api/recipes?filters',
    run: (s) => call('GET', '/api/recipes?max_time=30&dietary=vegetarian', s.token),
  },
  {
    weight: 20,
    label: 'GET /api/recipes/:id',
    run: (s) => call('GET', `/api/recipes/${pick(s.recipeIds)}`, s.token),
  },
  { weight: 8, label: 'GET /api/inventory', run: (s) => call('GET', '/api/inventory', s.token) },
  {
    weight: 5,
    label: 'POST+DELETE /api/inventory',
    run: async (s) => {
      const created = await call('POST', '/api/inventory', s.token, {
        ingredient_id: pick(s.ingredientIds),
        quantity: 500,
        unit: 'g',
        location: 'pantry',
        expiry_date: new Date(Date.now() + 5 * 86400_000).toISOString().slice(0, 10),
      });
      if (created.status !== 201) return created;
      return call('DELETE', `/api/inventory/${created.json.id}`, s.token);
    },
  },
  { weight: 8, label: 'GET /api/shopping-list', run: (s) => call('GET', '/api/shopping-list', s.token) },
  {
    weight: 4,
    label: 'POST /api/shopping-list',
    run: (s) =>
      call('POST', '/api/shopping-list', s.token, {
        ingredient_id: pick(s.ingredientIds),
        quantity: 1,
        unit: 'g',
      }),
  },
  {
    weight: 8,
    label: 'GET /api/meal-plans/:id',
    run: (s) => call('GET', `/api/meal-plans/${s.planId}`, s.token),
  },
  { weight: 4, label: 'GET /api/me', run: (s) => call('GET', '/api/me', s.token) },
  {
    weight: 3,
    label: 'POST /api/chat',
    run: (s) => call('POST', '/api/chat', s.token, { message: 'What can I cook tonight?' }),
  },
];
const totalWeight = actions.reduce((a, b) => a + b.weight, 0);
const chooseAction = () => {
  let r = Math.random() * totalWeight;
  for (const a of actions) if ((r -= a.weight) < 0) return a;
  return actions[0]!;
};

console.error(`preparing ${CLIENTS} users…`);
const sessions: Session[] = [];
for (let i = 0; i < CLIENTS; i += 20) {
  sessions.push(
    ...(await Promise.all(Array.from({ length: Math.min(20, CLIENTS - i) }, (_, j) => newSession(i + j)))),
  );
}
// Chat is Free-limited to 10 messages a day: make the load users Pro through the stored data is not
// possible from outside, so chat beyond the limit counts as an expected 429, reported separately.

const metricsBefore = await scrapeRequestCounts();
const latencies = new Map<string, number[]>();
const statuses = new Map<string, Map<number, number>>();
const memory: { t: number; rssMb: number }[] = [];
const started = Date.now();
const sampler = setInterval(
  () => memory.push({ t: (Date.now() - started) / 1000, rssMb: rssOf(service.child.pid!) }),
  1000,
);

/** Every request of the measured run: when it ended (s from the start) and how long it took. */
const timeline: { t: number; ms: number }[] = [];

/** The refresh_token cookie a response sets ('' when none). */
function cookieOf(res: Response): string {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('refresh_token='));
  return cookie ? cookie.split(';')[0]! : '';
}

/** What a client does when its access token expires: rotate the refresh cookie for a new one. */
async function renew(s: Session): Promise<boolean> {
  const res = await fetch(`${base}/api/auth/refresh`, {
    method: 'POST',
    headers: { cookie: s.refreshCookie },
  });
  if (res.status !== 200) return false;
  s.token = ((await res.json()) as { access_token: string }).access_token;
  s.refreshCookie = cookieOf(res) || s.refreshCookie;
  return true;
}

async function drive(seconds: number, record: boolean): Promise<void> {
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    sessions.map(async (s) => {
      while (Date.now() < until) {
        const action = chooseAction();
        const t0 = performance.now();
        let status: number;
        try {
          status = (await action.run(s)).status;
          // An expired access token: renewed as a client would, and the action tried again.
          if (status === 401 && (await renew(s))) status = (await action.run(s)).status;
        } catch {
          status = -1;
        }
        const ms = performance.now() - t0;
        if (!record) continue;
        (latencies.get(action.label) ?? latencies.set(action.label, []).get(action.label)!).push(ms);
        const byStatus =
          statuses.get(action.label) ?? statuses.set(action.label, new Map()).get(action.label)!;
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        timeline.push({ t: (Date.now() - started) / 1000, ms });
      }
    }),
  );
}

await drive(DURATION_S, true);
clearInterval(sampler);
const metricsAfter = await scrapeRequestCounts();
const half = memory.filter((m) => m.t >= DURATION_S / 2);
const slope = linearSlope(
  half.map((m) => m.t),
  half.map((m) => m.rssMb),
);
const heapGrowth =
  soak && (slope > 0.05 || process.argv.includes('--snapshots')) ? await compareHeapSnapshots() : undefined;
await service.stop();
await fakeModel.close();

const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
let errors = 0;
console.log(`\n${CLIENTS} clients, ${DURATION_S} s, ${base}`);
console.log('| route | requests | p50 ms | p99 ms | statuses |');
console.log('|---|---|---|---|---|');
for (const [label, xs] of latencies) {
  const byStatus = [...(statuses.get(label) ?? new Map<number, number>())];
  const bad = byStatus.filter(
    ([st]) => st < 0 || st >= 500 || (st >= 400 && !(label === 'POST /api/chat' && st === 429)),
  );
  errors += bad.reduce((a, [, n]) => a + n, 0);
  console.log(
    `| ${label} | ${xs.length} | ${pct(xs, 50).toFixed(1)} | ${pct(xs, 99).toFixed(1)} | ${byStatus.map(([st, n]) => `${st}×${n}`).join(' ')} |`,
  );
}
console.log(`\nerrors: ${errors}`);
reportServiceMetrics();
console.log(
  `memory (RSS MB): start ${memory[0]?.rssMb.toFixed(0)}, end ${memory.at(-1)?.rssMb.toFixed(0)}, max ${Math.max(...memory.map((m) => m.rssMb)).toFixed(0)}; trend over the second half ${slope.toFixed(2)} MB/s`,
);
console.log(
  `memory over time: ${memory
    .filter((_, i) => i % 5 === 0)
    .map((m) => `${m.t.toFixed(0)}s:${m.rssMb.toFixed(0)}`)
    .join(' ')}`,
);
const growth = slope * (DURATION_S / 2);
if (soak) process.exit(judgeSoak() ? 0 : 1);
const ok = errors === 0 && growth < 50;
console.log(
  ok
    ? 'PASS: zero errors, no memory growth trend'
    : `FAIL: ${errors} errors, ${growth.toFixed(0)} MB growth over the second half`,
);
process.exit(ok ? 0 : 1);

/** The soak's verdict: errors, memory slope within ±0.05 MB/s, p99 of the second half vs the first. */
function judgeSoak(): boolean {
  const windows = 10;
  const p99s = Array.from({ length: windows }, (_, w) => {
    const from = (DURATION_S * w) / windows;
    const to = (DURATION_S * (w + 1)) / windows;
    return pct(
      timeline.filter((r) => r.t >= from && r.t < to).map((r) => r.ms),
      99,
    );
  });
  const firstHalf = pct(
    timeline.filter((r) => r.t >= DURATION_S / 10 && r.t < DURATION_S / 2).map((r) => r.ms),
    99,
  );
  const secondHalf = pct(
    timeline.filter((r) => r.t >= DURATION_S / 2).map((r) => r.ms),
    99,
  );
  console.log(`p99 per tenth of the run (ms): ${p99s.map((p) => p.toFixed(0)).join(' ')}`);
  console.log(
    `p99 first half (after warm-up) ${firstHalf.toFixed(0)} ms, second half ${secondHalf.toFixed(0)} ms`,
  );
  if (heapGrowth) console.log(heapGrowth);
  const memoryOk = Math.abs(slope) <= 0.05;
  const p99Ok = secondHalf <= firstHalf * 1.5;
  const verdicts = [
    errors === 0 ? 'zero errors' : `${errors} errors`,
    `RSS trend ${slope.toFixed(3)} MB/s ${memoryOk ? 'within' : 'outside'} ±0.05`,
    `p99 ${p99Ok ? 'steady' : 'rising'} (${(secondHalf / Math.max(1, firstHalf)).toFixed(2)}×)`,
  ];
  const ok = errors === 0 && (memoryOk || memoryAdvisory) && p99Ok;
  const advisory = memoryAdvisory && !memoryOk ? ' (memory advisory only: --memory-advisory)' : '';
  console.log(`${ok ? 'PASS' : 'FAIL'} (soak): ${verdicts.join(', ')}${advisory}`);
  return ok;
}

/**
 * Two heap snapshots of the service, before and after a further probe load (a tenth of the run,
 * at least 30 s), compared by constructor: what grows between them is what the trend is made of.
 */
async function compareHeapSnapshots(): Promise<string> {
  const { readdirSync, mkdirSync, statSync } = await import('node:fs');
  mkdirSync(SNAPSHOT_DIR, { recursive: true });
  const snapshot = async (): Promise<string> => {
    const before = new Set(readdirSync(SNAPSHOT_DIR));
    process.kill(service.child.pid!, 'SIGUSR2');
    for (let i = 0; i < 600; i++) {
      await new Promise((r) => setTimeout(r, 500));
      const added = readdirSync(SNAPSHOT_DIR).find((f) => !before.has(f) && f.endsWith('.heapsnapshot'));
      // Written when its size stops changing.
      if (added) {
        const path = `${SNAPSHOT_DIR}/${added}`;
        const size = () => statSync(path).size;
        let last = -1;
        while (size() !== last) {
          last = size();
          await new Promise((r) => setTimeout(r, 1000));
        }
        return path;
      }
    }
    throw new Error('no heap snapshot was written');
  };
  const first = await snapshot();
  await drive(Math.max(30, DURATION_S / 10), false);
  const second = await snapshot();
  let a: Map<string, { count: number; bytes: number }>;
  let b: typeof a;
  try {
    a = heapByConstructor(first);
    b = heapByConstructor(second);
  } catch (error) {
    return `heap snapshots ${first} and ${second} written; not compared here (${(error as Error).message}): open them in Chrome DevTools`;
  }
  const rows = [...b]
    .map(([name, after]) => {
      const was = a.get(name) ?? { count: 0, bytes: 0 };
      return { name, count: after.count - was.count, bytes: after.bytes - was.bytes };
    })
    .sort((x, y) => y.bytes - x.bytes)
    .slice(0, 15);
  return (
    `heap growth between snapshots (${first} → ${second}), by constructor:\n` +
    rows.map((r) => `  ${(r.bytes / 1024).toFixed(0)} KB  ${r.count} objects  ${r.name}`).join('\n')
  );
}

/** Self size and count per node type and name of a V8 heap snapshot. */
function heapByConstructor(path: string): Map<string, { count: number; bytes: number }> {
  const snapshot = JSON.parse(readFileSync(path, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const types = snapshot.snapshot.meta.node_types[0];
  const out = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const key = `${types[snapshot.nodes[i + typeAt]!]}:${snapshot.strings[snapshot.nodes[i + nameAt]!]!.slice(0, 60)}`;
    const entry = out.get(key) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += snapshot.nodes[i + sizeAt]!;
    out.set(key, entry);
  }
  return out;
}

/** The service's request counters per `METHOD route status`, and model figures, from its Prometheus scrape. */
async function scrapeRequestCounts(): Promise<Map<string, number>> {
  const res = await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const counts = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    const request =
      /^mise_http_requests_total\{method="([^"]+)",route="([^"]+)",status="(\d+)"\} (\S+)$/.exec(line);
    if (request) counts.set(`${request[1]} ${request[2]} ${request[3]}`, Number(request[4]));
    const model = /^mise_model_(calls_total|cost_usd_total)\{([^}]*)\} (\S+)$/.exec(line);
    if (model)
      counts.set(
        `model ${model[1]} ${model[2]}`,
        (counts.get(`model ${model[1]} ${model[2]}`) ?? 0) + Number(model[3]),
      );
  }
  return counts;
}

/** What the service itself counted during the load (metrics delta) beside what the clients sent. */
function reportServiceMetrics(): void {
  const delta = (key: string) => (metricsAfter.get(key) ?? 0) - (metricsBefore.get(key) ?? 0);
  let counted = 0;
  const perRoute = new Map<string, number>();
  for (const key of metricsAfter.keys()) {
    if (key.startsWith('model ') || key.includes('/api/metrics')) continue;
    const n = delta(key);
    counted += n;
    const route = key.split(' ').slice(0, 2).join(' ');
    perRoute.set(route, (perRoute.get(route) ?? 0) + n);
  }
  const sent = [...latencies.values()].reduce((a, xs) => a + xs.length, 0);
  const modelCalls = [...metricsAfter.keys()]
    .filter((k) => k.startsWith('model calls_total'))
    .reduce((a, k) => a + delta(k), 0);
  const cost = [...metricsAfter.keys()]
    .filter((k) => k.startsWith('model cost_usd_total'))
    .reduce((a, k) => a + delta(k), 0);
  console.log(
    `service metrics (GET /api/metrics): ${counted} requests counted during the load, clients sent ${sent}; ` +
      `${modelCalls} model calls, estimated $${cost.toFixed(4)}`,
  );
  const top = [...perRoute].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  console.log(`  per route: ${top.map(([r, n]) => `${r} ${n}`).join(' · ')}`);
}

function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

function linearSlope(xs: number[], ys: number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

function mondayOf(d: Date): string {
  const day = (d.getUTCDay() + 6) % 7;
  const monday = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day));
  return monday.toISOString().slice(0, 10);
}

/** A loopback OpenAI-compatible chat-completions server answering with plain text. */
async function startFakeChatModel(): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-load',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'loopback',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'Try a quick vegetable stir-fry.' },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 50, completion_tokens: 8, total_tokens: 58 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
