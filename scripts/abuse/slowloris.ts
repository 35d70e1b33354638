import { connect, type Socket } from 'node:net';
import { startServiceProcess } from '../../test/support/processes.ts';
import { openDescriptors, quick, sleep, verdict, withDatabase, type Check } from '../faults/support.ts';

/**
 * Attack: slowloris. Many connections send a request a few bytes at a time (headers that never
 * end, or a body that trickles), holding sockets open. With REQUEST_TIMEOUT_MS the service must cut
 * each one off once the timeout has passed (answering 408 or closing), keep serving other clients
 * meanwhile, and release the sockets. Bounded: every attacking socket stops after HOLD_MS.
 */
const REQUEST_TIMEOUT_MS = 2000;
/** Beyond the timeout: the server checks timeouts every tenth of it, plus scheduling. */
const SLACK_MS = 2000;
const HOLD_MS = REQUEST_TIMEOUT_MS * 4;
const CONNECTIONS = quick ? 10 : 40;
const DRIP_MS = 300;

interface Outcome {
  closedAfterMs: number | undefined;
  answer: string;
}

function attack(port: number, kind: 'headers' | 'body'): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    const socket: Socket = connect(port, '127.0.0.1');
    const finish = (closedAfterMs: number | undefined) => {
      clearInterval(timer);
      clearTimeout(stop);
      socket.destroy();
      resolve({ closedAfterMs, answer: answer.split('\r\n')[0] ?? '' });
    };
    // The attacker gives up by itself after HOLD_MS: the run is bounded even if the service never cuts it off.
    const stop = setTimeout(() => finish(undefined), HOLD_MS);
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('close', () => finish(performance.now() - started));
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      if (kind === 'headers') {
        socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
        let n = 0;
        timer = setInterval(() => socket.write(`X-Slow-${n++}: ${'a'.repeat(8)}\r\n`), DRIP_MS);
      } else {
        socket.write(
          'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{',
        );
        timer = setInterval(() => socket.write(' '), DRIP_MS);
      }
    });
  });
}

const checks = await withDatabase(async (databaseUrl) => {
  const service = await startServiceProcess({
    DATABASE_URL: databaseUrl,
    DATA_DIR: `/tmp/mise-abuse-${process.pid}`,
    NODE_ENV: 'test',
    RATE_LIMIT_MAX: '100000000',
    AUTH_RATE_LIMIT_MAX: '100000',
    RUN_WORKERS: 'false',
    SEED_CATALOG: 'false',
    REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  });
  const checks: Check[] = [];
  try {
    const port = Number(new URL(service.url).port);
    const pid = service.child.pid!;
    await fetch(`${service.url}/api/health`).then((r) => r.arrayBuffer());
    const baseline = openDescriptors(pid);
    for (const kind of ['headers', 'body'] as const) {
      const attacks = Promise.all(Array.from({ length: CONNECTIONS }, () => attack(port, kind)));
      // While the attack holds its sockets, an ordinary client is still served.
      await sleep(REQUEST_TIMEOUT_MS / 2);
      const started = performance.now();
      const health = await fetch(`${service.url}/api/health`, { signal: AbortSignal.timeout(10_000) }).then(
        (r) => r.status,
        () => 0,
      );
      const healthMs = performance.now() - started;
      const outcomes = await attacks;
      const cut = outcomes.filter(
        (o) => o.closedAfterMs !== undefined && o.closedAfterMs <= REQUEST_TIMEOUT_MS + SLACK_MS,
      );
      const slowest = Math.max(...outcomes.map((o) => o.closedAfterMs ?? Infinity));
      const answers = [...new Set(outcomes.map((o) => o.answer || '(closed without answer)'))];
      checks.push({
        name: `slow ${kind}: every connection is cut off after REQUEST_TIMEOUT_MS`,
        ok: cut.length === CONNECTIONS,
        detail: `${cut.length}/${CONNECTIONS} cut, slowest ${Number.isFinite(slowest) ? Math.round(slowest) : 'never'} ms (limit ${REQUEST_TIMEOUT_MS + SLACK_MS}); answers: ${answers.join(' | ')}`,
      });
      checks.push({
        name: `slow ${kind}: other clients are served during the attack`,
        ok: health === 200,
        detail: `GET /api/health ${health} in ${Math.round(healthMs)} ms`,
      });
    }
    await sleep(500);
    const after = openDescriptors(pid);
    checks.push({
      name: 'sockets are released',
      ok: after <= baseline + 2,
      detail: `open descriptors ${after}, baseline ${baseline}`,
    });
  } finally {
    await service.stop();
  }
  return checks;
});

verdict('slowloris', checks);
