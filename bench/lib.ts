import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Benchmark plumbing. The load generator (autocannon) runs in its own process so that it does not
 * share the event loop with the service under test; every figure is printed beside a reference
 * measured in the same run (a bare route, or the raw driver running the same SQL behind a minimal
 * node:http server).
 */
export interface LoadOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
}

const autocannonBin = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../node_modules/autocannon/autocannon.js',
);

export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const args = [
    autocannonBin,
    '-j',
    '-c',
    String(options.connections),
    '-d',
    String(options.durationSeconds),
  ];
  args.push('-m', options.method ?? 'GET');
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  if (options.body !== undefined) args.push('-b', options.body);
  args.push(url);
  const output = await run(process.execPath, args);
  const result = JSON.parse(output) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  };
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`autocannon failed: ${err}`))));
  });
}

/** A minimal HTTP server around a handler: the "raw driver" reference for a route's query. */
export async function rawServer(
  handler: (req: IncomingMessage) => Promise<unknown>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    handler(req).then(
      (body) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      },
      (error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface BenchRow {
  suite: string;
  case: string;
  database: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  reference?: { name: string; rps: number; p99: number };
  /** e.g. "p99 < 50 ms" or ">= 60% of raw" */
  target?: string;
  met?: boolean;
  note?: string;
}

export function printTable(rows: BenchRow[]): string {
  const header = [
    'suite',
    'case',
    'db',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'reference',
    'ref req/s',
    'ratio',
    'target',
    'met',
  ];
  const lines = rows.map((r) => [
    r.suite,
    r.case,
    r.database,
    String(r.rps),
    String(r.p50),
    String(r.p99),
    String(r.errors),
    r.reference?.name ?? '',
    r.reference ? String(r.reference.rps) : '',
    r.reference && r.reference.rps > 0 ? `${Math.round((100 * r.rps) / r.reference.rps)}%` : '',
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  const notes = rows.flatMap((r) => (r.note ? [`- ${r.suite} / ${r.case} (${r.database}): ${r.note}`] : []));
  const table = [fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...lines.map(fmt)].join('\n');
  return notes.length > 0 ? `${table}\n\nNotes:\n${notes.join('\n')}` : table;
}

/**
 * One request after another, `count` times, from this process: for routes far too slow for a
 * timed autocannon run (seconds per request). p99 of a handful of samples is their maximum.
 */
export async function sequentialLoad(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; count: number },
): Promise<LoadResult> {
  const times: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const started = performance.now();
  for (let i = 0; i < options.count; i++) {
    const t = performance.now();
    try {
      const res = await fetch(url, {
        method: options.method ?? 'GET',
        headers: options.headers,
        body: options.body,
      });
      await res.arrayBuffer();
      if (res.status < 200 || res.status >= 300) non2xx += 1;
    } catch {
      errors += 1;
    }
    times.push(performance.now() - t);
  }
  const elapsed = (performance.now() - started) / 1000;
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0);
  return {
    rps: Math.round((options.count / elapsed) * 10) / 10,
    p50: at(0.5),
    p99: at(0.99),
    requests: options.count,
    errors,
    non2xx,
  };
}
