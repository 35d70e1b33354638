import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flyerForm, rowFlyer, waitFor } from './support/flyers.ts';
import { client } from './support/http.ts';
import { startServiceProcess, type ServiceProcess } from './support/processes.ts';

/**
 * A worker on another host: `npm run worker` in its own process with its own DATA_DIR (nothing on
 * disk shared with the API instance) processes a flyer uploaded through the API instance, which runs
 * no workers. Needs the PostgreSQL server (TEST_DATABASE_URL; CI sets it).
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl) console.warn('worker-host test skipped: set TEST_DATABASE_URL');
const root = path.resolve(import.meta.dirname, '..');
const ADMIN = { email: 'worker-host-admin@example.test', password: 'worker-host-password' };

let admin: pg.Client;
let dbName: string;
let api: ServiceProcess;
let worker: ChildProcess | undefined;
let workerOutput = '';

function startWorker(env: Record<string, string>): Promise<void> {
  worker = spawn(process.execPath, ['src/worker.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start: ${workerOutput}`)), 60_000);
    const read = (chunk: Buffer) => {
      workerOutput += chunk.toString();
      if (workerOutput.includes('workers ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    worker!.stdout!.on('data', read);
    worker!.stderr!.on('data', read);
    worker!.once('exit', (code) => reject(new Error(`worker exited (${code}): ${workerOutput}`)));
  });
}

describe.skipIf(!databaseUrl)('a worker on another host', () => {
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    dbName = `mise_worker_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${dbName}`);
    const url = new URL(databaseUrl!);
    url.pathname = `/${dbName}`;
    const shared = {
      DATABASE_URL: url.toString(),
      JWT_SECRET: 'worker-host-secret-worker-host-secret',
      ADMIN_EMAILS: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SEED_CATALOG: 'false',
    };
    api = await startServiceProcess({ ...shared, RUN_WORKERS: 'false', DATA_DIR: `/tmp/${dbName}-api` });
    await startWorker({ ...shared, DATA_DIR: `/tmp/${dbName}-worker` });
  }, 120_000);

  afterAll(async () => {
    worker?.kill('SIGTERM');
    await api?.stop();
    if (admin) {
      await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
      await admin.end();
    }
  });

  it("loads OCR's models as it starts (its first image flyer does not wait for them); the API does not", async () => {
    await waitFor(async () => (workerOutput.includes('flyer OCR warmed up') ? true : undefined), 60_000);
    expect(workerOutput).not.toMatch(/warm-up failed/);
    expect(api.output()).not.toMatch(/flyer OCR warm/);
  }, 70_000);

  it('processes a flyer uploaded through the API instance, reading it from the shared database', async () => {
    const call = client(api.url);
    const token = (await call('POST', '/api/auth/login', { body: ADMIN })).body.access_token;
    const store = await call('POST', '/api/admin/stores', {
      token,
      body: { name: 'Far Away Market', logo_url: 'https://example.test/logo.png' },
    });
    const flyer = await rowFlyer();
    const upload = await call('POST', `/api/admin/stores/${store.body.id}/promotions/upload`, {
      token,
      rawBody: flyerForm(flyer.bytes),
    });
    expect(upload.status).toBe(202);
    const job = await waitFor(async () => {
      const { body } = await call('GET', `/api/admin/stores/${store.body.id}/jobs`, { token });
      const found = body.jobs.find((j: { id: string }) => j.id === upload.body.job_id);
      return found.status === 'completed' || found.status === 'failed' ? found : undefined;
    }, 60_000);
    expect(job).toMatchObject({ status: 'completed', error: null });
    const candidates = await call('GET', `/api/admin/stores/${store.body.id}/candidates?job_id=${job.id}`, {
      token,
    });
    expect(candidates.body.items.map((c: { product: string }) => c.product).sort()).toEqual(
      flyer.expected.map((o) => o.product).sort(),
    );
    // The API instance drew nothing and processed nothing: the worker did, from the database.
    expect(workerOutput).not.toMatch(/no file flyers/);
  }, 90_000);
});
