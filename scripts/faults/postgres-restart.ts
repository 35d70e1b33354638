import { startServiceProcess } from '../../test/support/processes.ts';
import {
  clusterVersion,
  quick,
  registerUser,
  run,
  sleep,
  verdict,
  withDatabase,
  type Check,
} from './support.ts';

/**
 * Fault (a): PostgreSQL restarted under write load.
 *   - the health check reports the outage (503) and recovers by itself (200 again, same process);
 *   - no acknowledged write is lost: every POST /api/inventory answered 201 is there afterwards;
 *   - nothing but 503 (or a refused/failed write) is answered during the outage: no 500.
 * Restarts the machine's cluster (pg_ctlcluster), which disturbs other PostgreSQL users for a few
 * seconds: run it sparingly. The service uses a database of its own, dropped at the end.
 */
const WRITERS = quick ? 4 : 16;
const BEFORE_MS = quick ? 1500 : 4000;
const AFTER_MS = quick ? 4000 : 10_000;
const RECOVERY_LIMIT_MS = 30_000;

const checks = await withDatabase(async (databaseUrl) => {
  const service = await startServiceProcess({
    DATABASE_URL: databaseUrl,
    DATA_DIR: `/tmp/mise-faults-${process.pid}`,
    RATE_LIMIT_MAX: '100000000',
    AUTH_RATE_LIMIT_MAX: '100000',
    RUN_WORKERS: 'false',
    SEED_CATALOG: 'true', // ingredients, which the writes reference
    NODE_ENV: 'test',
    ...(process.env.FAULTS_SERVICE_NODE_OPTIONS
      ? { NODE_OPTIONS: process.env.FAULTS_SERVICE_NODE_OPTIONS }
      : {}),
  });
  const checks: Check[] = [];
  try {
    const { token } = await registerUser(service.url, 'pg-restart');
    const acknowledged: string[] = [];
    const statuses = new Map<number | string, number>();
    const healthSeen: { at: number; status: number | string }[] = [];
    let stop = false;
    const count = (key: number | string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);

    const ingredientId = await firstIngredient(service.url);
    const writer = async (n: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await fetch(`${service.url}/api/inventory`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ ingredient_id: ingredientId, quantity: 1 + ((n + i) % 9), unit: 'g' }),
            signal: AbortSignal.timeout(15_000),
          });
          count(res.status);
          if (res.status === 201) acknowledged.push(((await res.json()) as { id: string }).id);
          else await res.arrayBuffer();
        } catch (error) {
          count((error as Error).name);
          await sleep(50);
        }
      }
    };
    const health = async () => {
      while (!stop) {
        const at = Date.now();
        try {
          const res = await fetch(`${service.url}/api/health`, { signal: AbortSignal.timeout(5000) });
          await res.arrayBuffer();
          healthSeen.push({ at, status: res.status });
        } catch (error) {
          healthSeen.push({ at, status: (error as Error).name });
        }
        await sleep(50);
      }
    };

    const load = [...Array.from({ length: WRITERS }, (_, n) => writer(n)), health()];
    await sleep(BEFORE_MS);
    const version = clusterVersion();
    const restartAt = Date.now();
    console.log(`restarting PostgreSQL ${version}/main under load (${WRITERS} writers)…`);
    await run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'restart']);
    const restartedAt = Date.now();
    await sleep(AFTER_MS);

    // Recovery: the same process answers 200 again within the limit.
    let recoveredAt: number | undefined;
    const deadline = Date.now() + RECOVERY_LIMIT_MS;
    while (Date.now() < deadline && recoveredAt === undefined) {
      const last = healthSeen.at(-1);
      if (last && last.status === 200 && last.at > restartedAt) recoveredAt = last.at;
      else await sleep(200);
    }
    stop = true;
    await Promise.all(load);

    const during = healthSeen.filter(
      (h) => h.at >= restartAt && (recoveredAt === undefined || h.at <= recoveredAt),
    );
    checks.push({
      name: 'health reports the outage',
      ok: during.some((h) => h.status === 503),
      detail: `statuses seen from the restart to recovery: ${summarise(during.map((h) => h.status))}`,
    });
    checks.push({
      name: 'service recovers by itself',
      ok: recoveredAt !== undefined && service.child.exitCode === null,
      detail:
        recoveredAt === undefined
          ? `no 200 within ${RECOVERY_LIMIT_MS} ms after the restart`
          : `200 again ${recoveredAt - restartedAt} ms after pg_ctlcluster returned (restart took ${restartedAt - restartAt} ms)`,
    });
    // Not a pass/fail criterion of contract §2 (which only binds /api/health), printed for reading.
    console.log(`info writes answered: ${[...statuses.entries()].map(([k, v]) => `${k}×${v}`).join(', ')}`);

    const stored = await fetch(`${service.url}/api/inventory`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const ids = new Set(((await stored.json()) as { items: { id: string }[] }).items.map((i) => i.id));
    const lost = acknowledged.filter((id) => !ids.has(id));
    checks.push({
      name: 'no acknowledged write is lost',
      ok: acknowledged.length > 0 && lost.length === 0,
      detail: `${acknowledged.length} writes answered 201, ${lost.length} missing afterwards (${ids.size} rows stored)`,
    });
  } catch (error) {
    checks.push({ name: 'script ran', ok: false, detail: String(error) });
  } finally {
    if (service.child.exitCode !== null) {
      checks.push({
        name: 'service process stays up',
        ok: false,
        detail: `exited with ${service.child.exitCode}; last output:\n${service.output().slice(-6000)}`,
      });
    }
    await service.stop();
  }
  return checks;
});
verdict('faults/postgres-restart', checks);

async function firstIngredient(baseUrl: string): Promise<number> {
  const res = await fetch(`${baseUrl}/api/ingredients?q=flour&limit=1`);
  const body = (await res.json()) as { items: { id: number }[] };
  if (!body.items[0]) throw new Error('no ingredients: seeding failed');
  return body.items[0].id;
}

function summarise(values: (number | string)[]): string {
  const counts = new Map<number | string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].map(([k, v]) => `${k}×${v}`).join(', ') || 'none';
}
