import { startServiceProcess } from '../../test/support/processes.ts';
import {
  hangingUpstream,
  openDescriptors,
  quick,
  registerUser,
  sleep,
  verdict,
  withDatabase,
  type Check,
} from './support.ts';

/**
 * Fault (c): the LLM, image-generation and payment upstreams accept connections and never answer.
 * For each, a burst of concurrent requests must end with 504 upstream_timeout at the configured
 * timeout (not hang, not 500), and nothing may pile up: the upstream's open connections drop to
 * zero and the service's open descriptors return to their baseline.
 */
const TIMEOUT_MS = 1500;
/** Time allowed beyond the configured timeout (scheduling, the database work around the call). */
const SLACK_MS = 1500;
const BURST = quick ? 10 : 40;
/** undici (fetch) closes an idle pooled connection after 4 s; a little more for scheduling. */
const IDLE_RELEASE_MS = 5000;

interface UpstreamCase {
  name: string;
  request: (baseUrl: string, token: string, recipeId: string) => Promise<Response>;
}

const post = (url: string, token: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });

const cases: UpstreamCase[] = [
  {
    name: 'LLM (POST /api/chat)',
    request: (base, token) => post(`${base}/api/chat`, token, { message: 'What can I cook with leeks?' }),
  },
  {
    name: 'image generation (POST /api/image-gen/recipes/:id/hero)',
    request: (base, token, recipeId) =>
      post(`${base}/api/image-gen/recipes/${recipeId}/hero`, token, {
        title: 'A hero shot',
        description: 'The finished dish on a plate.',
        style: 'photographic',
      }),
  },
  {
    name: 'payments (POST /api/subscription/checkout)',
    request: (base, token) =>
      post(`${base}/api/subscription/checkout`, token, {
        tier: 'pro',
        success_url: 'https://example.test/ok',
        cancel_url: 'https://example.test/cancel',
      }),
  },
];

const upstreams = {
  llm: await hangingUpstream(),
  image: await hangingUpstream(),
  payment: await hangingUpstream(),
};
const byCase = [upstreams.llm, upstreams.image, upstreams.payment];

const checks = await withDatabase(async (databaseUrl) => {
  const service = await startServiceProcess({
    DATABASE_URL: databaseUrl,
    DATA_DIR: `/tmp/mise-faults-${process.pid}`,
    NODE_ENV: 'test',
    RATE_LIMIT_MAX: '100000000',
    AUTH_RATE_LIMIT_MAX: '100000',
    RUN_WORKERS: 'false',
    SEED_CATALOG: 'true',
    LLM_BASE_URL: upstreams.llm.url,
    LLM_API_KEY: 'fault-key',
    CHAT_MODEL: 'fault-model',
    LLM_TIMEOUT_MS: String(TIMEOUT_MS),
    IMAGE_GEN_URL: upstreams.image.url,
    IMAGE_GEN_TOKEN: 'fault-token',
    IMAGE_GEN_TIMEOUT_MS: String(TIMEOUT_MS),
    STRIPE_SECRET_KEY: 'sk_test_fault',
    STRIPE_API_BASE: upstreams.payment.url,
    STRIPE_TIMEOUT_MS: String(TIMEOUT_MS),
    PAYMENT_WEBHOOK_SECRET: 'whsec_fault',
    PRICE_ID_PRO: 'price_pro',
    PRICE_ID_FAMILY: 'price_family',
  });
  const checks: Check[] = [];
  try {
    const pid = service.child.pid!;
    const recipes = (await (await fetch(`${service.url}/api/recipes?limit=1`)).json()) as {
      items: { id: string }[];
    };
    const recipeId = recipes.items[0]?.id ?? '00000000-0000-0000-0000-000000000000';
    for (const [index, c] of cases.entries()) {
      const upstream = byCase[index]!;
      // Each burst uses fresh users: a user's own limits (the Free chat quota, one checkout at a
      // time) must not be what ends the requests.
      const users = await Promise.all(
        Array.from({ length: BURST }, (_, n) => registerUser(service.url, `hang${index}-${n}`)),
      );
      // Warm the database pool to the burst's concurrency first, so that the descriptor baseline
      // already holds its connections: with a route that reads on a connection of its own per
      // request (the callers of requests arriving together are read in one query).
      await Promise.all(
        users.map((u) =>
          fetch(`${service.url}/api/shopping-list`, { headers: { authorization: `Bearer ${u.token}` } }).then(
            (r) => r.arrayBuffer(),
          ),
        ),
      );
      await sleep(300);
      const baseline = openDescriptors(pid);
      const results = await Promise.all(
        users.map(async (u) => {
          const started = performance.now();
          try {
            const res = await c.request(service.url, u.token, recipeId);
            const body = (await res.json().catch(() => ({}))) as { code?: string };
            return { status: res.status, code: body.code, ms: performance.now() - started };
          } catch (error) {
            return { status: (error as Error).name, code: undefined, ms: performance.now() - started };
          }
        }),
      );
      const statuses = new Map<string, number>();
      for (const r of results)
        statuses.set(
          `${r.status} ${r.code ?? ''}`.trim(),
          (statuses.get(`${r.status} ${r.code ?? ''}`.trim()) ?? 0) + 1,
        );
      const slowest = Math.max(...results.map((r) => r.ms));
      checks.push({
        name: `${c.name}: every request ends with 504 at the timeout`,
        ok: results.every((r) => r.status === 504) && slowest <= TIMEOUT_MS + SLACK_MS,
        detail: `${[...statuses.entries()].map(([k, v]) => `${k}×${v}`).join(', ')}; slowest ${Math.round(slowest)} ms (timeout ${TIMEOUT_MS} ms + ${SLACK_MS} ms slack); upstream saw ${upstream.accepted()} connections`,
      });
      // Connections the service still holds to the upstream after answering must be released
      // within fetch's (undici's) 4 s idle keep-alive: never held until some later timeout.
      const answeredAt = Date.now();
      let lingering = upstream.open();
      while (upstream.open() > 0 && Date.now() - answeredAt < 2 * IDLE_RELEASE_MS) await sleep(100);
      const drainedMs = Date.now() - answeredAt;
      lingering = Math.max(lingering, upstream.open());
      await sleep(500);
      const after = openDescriptors(pid);
      checks.push({
        name: `${c.name}: nothing piles up`,
        ok: drainedMs <= IDLE_RELEASE_MS && upstream.open() === 0 && after <= baseline + 2,
        detail: `${lingering} upstream connections open when the last answer came, ${upstream.open() === 0 ? `all closed after ${drainedMs} ms` : `${upstream.open()} still open after ${drainedMs} ms`}; service descriptors ${baseline} before, ${after} after; upstream accepted ${upstream.accepted()} connections in all`,
      });
    }
  } catch (error) {
    checks.push({ name: 'script ran', ok: false, detail: String(error) });
  } finally {
    await service.stop();
  }
  return checks;
});
await Promise.all(Object.values(upstreams).map((u) => u.close()));
verdict('faults/upstream-hang', checks);
