import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import {
  closeWithJobs,
  multiPageFlyer,
  severableDatabase,
  TEST_QUEUE,
  waitFor,
} from '../../../test/support/flyers.ts';
import type { DatabaseHandle } from '../../platform/db/database.ts';
import { UnpdfReader } from '../../providers/pdf/unpdf-reader.ts';
import { FlyerReader, type FlyerRun, type FlyerSource } from './extraction/flyer-reader.ts';
import type { FlyerRecoveryPolicy, FlyerWorker } from './jobs.ts';

/**
 * Durability of flyer jobs: a run interrupted mid-job is taken over by another worker and
 * completes once with exactly the right candidates; two workers on one queue never share a job.
 */
let ctx: TestApp;
const started: FlyerWorker[] = [];
const plainReader = new FlyerReader(new UnpdfReader(), undefined);

beforeAll(async () => {
  ctx = await startTestApp();
});

afterAll(async () => {
  for (const worker of started) await worker.stop(false);
  if (ctx) await closeWithJobs(ctx);
});

async function startWorker(
  reader: FlyerSource,
  expireInSeconds: number,
  options: { retryLimit?: number; queueDatabase?: DatabaseHandle; recovery?: FlyerRecoveryPolicy } = {},
): Promise<FlyerWorker> {
  const worker = await ctx.services.startFlyerWorker({
    queue: TEST_QUEUE,
    policy: { expireInSeconds, retryLimit: options.retryLimit ?? 3, retryDelaySeconds: 1 },
    reader,
    ...(options.recovery ? { recovery: options.recovery } : {}),
    ...(options.queueDatabase ? { queueDatabase: options.queueDatabase } : {}),
  });
  started.push(worker);
  return worker;
}

interface JobState {
  status: string;
  attempts: number;
  pages_processed: number;
  candidates_extracted: number;
}

async function jobRow(id: string): Promise<JobState> {
  const result = await sql<JobState>`
    select status, attempts, pages_processed, candidates_extracted from promotion_jobs where id = ${id}`.execute(
    ctx.database.db,
  );
  return result.rows[0]!;
}

async function candidatesOf(
  jobId: string,
): Promise<Array<{ product: string; page: number; discounted_price: number }>> {
  const result = await sql<{ product: string; page: number; discounted_price: number }>`
    select product, page, discounted_price from promotions where job_id = ${jobId} order by page, product`.execute(
    ctx.database.db,
  );
  return result.rows;
}

/** A reader that counts the flyers it opens and can hold a page until released. */
function instrumentedReader(holdPage?: number) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let reachedHold: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (reachedHold = resolve));
  const opened: string[] = [];
  const reader: FlyerSource = {
    async open(bytes, uploadedAt): Promise<FlyerRun> {
      const run = await plainReader.open(bytes, uploadedAt);
      opened.push(uploadedAt.toISOString());
      return {
        pageCount: run.pageCount,
        close: () => run.close(),
        extractPage: async (page) => {
          if (page === holdPage) {
            reachedHold();
            await gate;
          }
          return run.extractPage(page);
        },
      };
    },
  };
  return { reader, opened, release, held };
}

/** Recovery fast enough for a test: silent for 2 s counts as dead. */
const SILENT: FlyerRecoveryPolicy = {
  heartbeatSeconds: 1,
  stalledAfterSeconds: 2,
  sweepSeconds: 1,
  maxAttempts: 5,
};

/** The shared data sits beside the project (../shared from its root), wherever it is cloned. */
const REAL_FLYER = path.resolve(
  import.meta.dirname,
  '../../../../shared/data/flyers/aseman-lebensmittel-berlin-2020-sonderaktion-de.pdf',
);

describe('durable flyer jobs', () => {
  it.skipIf(!existsSync(REAL_FLYER))('processes the real Aseman flyer end to end', async () => {
    const store = await ctx.services.stores.createStore({
      name: 'Aseman',
      logo_url: 'https://x.example/a.png',
    });
    const worker = await startWorker(plainReader, 60);
    const job = await ctx.services.stores.uploadFlyer(store.id, readFileSync(REAL_FLYER));
    const done = await waitFor(async () => {
      const row = await jobRow(job.id);
      return row.status === 'completed' ? row : undefined;
    });
    expect(done).toMatchObject({ pages_processed: 1, candidates_extracted: 6, attempts: 1 });
    const candidates = await candidatesOf(job.id);
    expect(candidates).toEqual(
      expect.arrayContaining([
        { product: 'Reis', page: 1, discounted_price: 20.99 },
        { product: 'Persische Pistazien', page: 1, discounted_price: 13.99 },
        { product: 'Safran', page: 1, discounted_price: 1.99 },
      ]),
    );
    await worker.stop();
  });

  it('a job interrupted mid-run is picked up by another worker and completes once', async () => {
    const store = await ctx.services.stores.createStore({
      name: 'Restart Mart',
      logo_url: 'https://x.example/l.png',
    });
    const flyer = await multiPageFlyer(3, 'Restart');
    const interrupted = instrumentedReader(2);
    const first = await startWorker(interrupted.reader, 3);

    const job = await ctx.services.stores.uploadFlyer(store.id, Buffer.from(flyer.bytes));
    await interrupted.held;
    // Page 1 is recorded, page 2 is in flight: now the worker "crashes".
    expect(await jobRow(job.id)).toMatchObject({ status: 'processing', attempts: 1, pages_processed: 1 });
    await first.stop(false);

    const second = await startWorker(plainReader, 3);
    const done = await waitFor(async () => {
      const row = await jobRow(job.id);
      return row.status === 'completed' ? row : undefined;
    });
    expect(done.attempts).toBeGreaterThanOrEqual(2);
    expect(done.pages_processed).toBe(3);
    expect(done.candidates_extracted).toBe(3);

    // The abandoned run wakes up: its writes are refused (fenced on the attempt).
    interrupted.release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const candidates = await candidatesOf(job.id);
    expect(candidates).toEqual(
      flyer.expected.map((e, i) => ({
        product: e.product,
        page: i + 1,
        discounted_price: e.discounted_price,
      })),
    );
    expect(await jobRow(job.id)).toMatchObject({ status: 'completed', candidates_extracted: 3 });
    await second.stop();
  });

  it('the job of a worker that died mid-run expires and another worker completes it', async () => {
    const store = await ctx.services.stores.createStore({
      name: 'Hung Mart',
      logo_url: 'https://x.example/l.png',
    });
    const flyer = await multiPageFlyer(2, 'Hung');
    const hung = instrumentedReader(2);
    const channel = severableDatabase(ctx.database);
    const hungWorker = await startWorker(hung.reader, 2, { queueDatabase: channel.handle });
    const job = await ctx.services.stores.uploadFlyer(store.id, Buffer.from(flyer.bytes));
    await hung.held;
    // The worker "dies": its run never returns and its queue can no longer reach the database, so
    // nothing is failed or released on its behalf; only expiry can take the job away from it.
    channel.sever();
    const rescuer = await startWorker(plainReader, 2);
    const done = await waitFor(async () => {
      const row = await jobRow(job.id);
      return row.status === 'completed' ? row : undefined;
    });
    expect(done).toMatchObject({ pages_processed: 2, candidates_extracted: 2 });
    expect(done.attempts).toBeGreaterThanOrEqual(2);
    hung.release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await candidatesOf(job.id)).map((c) => c.product)).toEqual(['Hung Number 1', 'Hung Number 2']);
    await rescuer.stop();
    await hungWorker.stop();
  });

  it('a dead worker is noticed by its silence, long before queue expiry, and the job completes once', async () => {
    const store = await ctx.services.stores.createStore({
      name: 'Silent Mart',
      logo_url: 'https://x.example/l.png',
    });
    const flyer = await multiPageFlyer(3, 'Silent');
    const hung = instrumentedReader(2);
    const channel = severableDatabase(ctx.database);
    // The dying worker never beats again and its queue would only expire the job after 10 minutes.
    const hungWorker = await startWorker(hung.reader, 600, {
      queueDatabase: channel.handle,
      recovery: { ...SILENT, heartbeatSeconds: 3600, sweepSeconds: 3600 },
    });
    const job = await ctx.services.stores.uploadFlyer(store.id, Buffer.from(flyer.bytes));
    await hung.held;
    channel.sever();
    const rescuer = await startWorker(plainReader, 600, { recovery: SILENT });
    const done = await waitFor(async () => {
      const row = await jobRow(job.id);
      return row.status === 'completed' ? row : undefined;
    });
    expect(done).toMatchObject({ attempts: 2, pages_processed: 3, candidates_extracted: 3 });
    hung.release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The dead attempt's late page was fenced out: each offer once.
    expect((await candidatesOf(job.id)).map((c) => c.product)).toEqual(flyer.expected.map((e) => e.product));
    expect((await jobRow(job.id)).status).toBe('completed');
    await rescuer.stop();
    await hungWorker.stop(false);
  });

  it('a job whose attempts keep going silent fails after maxAttempts, with an error', async () => {
    const store = await ctx.services.stores.createStore({
      name: 'Mute Mart',
      logo_url: 'https://x.example/l.png',
    });
    const flyer = await multiPageFlyer(1, 'Mute');
    const hung = instrumentedReader(1);
    const worker = await startWorker(hung.reader, 600, {
      recovery: { ...SILENT, heartbeatSeconds: 3600, maxAttempts: 1 },
    });
    const job = await ctx.services.stores.uploadFlyer(store.id, Buffer.from(flyer.bytes));
    await hung.held;
    const failed = await waitFor(async () => {
      const [row] = (await ctx.services.stores.listJobs(store.id)).filter((j) => j.id === job.id);
      return row?.status === 'failed' ? row : undefined;
    });
    expect(failed.error).toMatch(/interrupted/);
    hung.release();
    await worker.stop();
  });

  it('keeps a price over 10× the flyer median for audit, not listed, unless its unit explains it (up to 100×) or a text layer printed it', async () => {
    const store = await ctx.services.stores.createStore({
      name: 'Outlier Mart',
      logo_url: 'https://x.example/o.png',
    });
    const offer = (product: string, price: number, unit = '', fromTextLayer = false) => ({
      product,
      brand: '',
      originalPrice: price,
      discountedPrice: price,
      unit,
      confidence: 0.8,
      validUntil: '2099-01-01',
      fromTextLayer,
    });
    const fixed: FlyerSource = {
      open: async () => ({
        pageCount: 1,
        close: async () => undefined,
        extractPage: async () => [
          offer('Apples', 1.99),
          offer('Pears', 2.49),
          offer('Milk', 0.99),
          offer('Bread', 1.49),
          offer('Coffee', 3.99),
          offer('Eggs', 2.99),
          offer('Butter', 2.29),
          offer('Onions', 1.29),
          offer('Cheddar', 399, '8 oz'), // "$3⁹⁹" read as 399
          offer('Rice', 49.9, '10 kg'),
          offer('Water', 39.0, '6 x 1,5 l'),
          offer('Tomatoes', 7991.99, 'per kg'), // a header's digits glued to "R$ 7,99": no unit explains 2,000×
          offer('Whisky', 79.9, '750 ml', true), // printed in the PDF's text: a dear offer, not a misreading
        ],
      }),
    };
    const worker = await startWorker(fixed, 60);
    const flyer = await multiPageFlyer(1, 'Outlier');
    const job = await ctx.services.stores.uploadFlyer(store.id, Buffer.from(flyer.bytes));
    await waitFor(async () => ((await jobRow(job.id)).status === 'completed' ? true : undefined));
    const page = { limit: 100, offset: 0 };
    const listed = (await ctx.services.stores.listCandidates(store.id, job.id, page)).rows;
    expect(listed.map((c) => c.product).sort()).toEqual([
      'Apples',
      'Bread',
      'Butter',
      'Coffee',
      'Eggs',
      'Milk',
      'Onions',
      'Pears',
      'Rice',
      'Water',
      'Whisky',
    ]);
    const all = (await ctx.services.stores.listCandidates(store.id, job.id, page, true)).rows;
    expect(all.find((c) => c.product === 'Cheddar')).toBeDefined();
    expect(all.find((c) => c.product === 'Tomatoes')).toBeDefined();
    await worker.stop();
  });

  it('a transient failure is retried; the retry completes and clears the error', async () => {
    const store = await ctx.services.stores.createStore({
      name: 'Flaky Mart',
      logo_url: 'https://x.example/l.png',
    });
    const flyer = await multiPageFlyer(1, 'Flaky');
    let opens = 0;
    const flaky: FlyerSource = {
      open: async (bytes, uploadedAt) => {
        opens += 1;
        if (opens === 1) throw new Error('storage temporarily unavailable');
        return plainReader.open(bytes, uploadedAt);
      },
    };
    const worker = await startWorker(flaky, 60);
    const job = await ctx.services.stores.uploadFlyer(store.id, Buffer.from(flyer.bytes));
    const done = await waitFor(async () => {
      const row = await jobRow(job.id);
      return row.status === 'completed' ? row : undefined;
    });
    expect(done).toMatchObject({ attempts: 2, candidates_extracted: 1 });
    const listed = await ctx.services.stores.listJobs(store.id);
    expect(listed[0]).toMatchObject({ status: 'completed', error: null });
    await worker.stop();
  });

  it('a job whose runs keep dying fails once its retries are exhausted, with an error', async () => {
    const store = await ctx.services.stores.createStore({
      name: 'Doomed Mart',
      logo_url: 'https://x.example/l.png',
    });
    const flyer = await multiPageFlyer(1, 'Doomed');
    const hung = instrumentedReader(1);
    const worker = await startWorker(hung.reader, 1, { retryLimit: 0 });
    const job = await ctx.services.stores.uploadFlyer(store.id, Buffer.from(flyer.bytes));
    await hung.held;
    const failed = await waitFor(async () => {
      const [row] = (await ctx.services.stores.listJobs(store.id)).filter((j) => j.id === job.id);
      return row?.status === 'failed' ? row : undefined;
    });
    expect(failed.error).toMatch(/interrupted/);
    expect(failed.completed_at).toBeInstanceOf(Date);
    hung.release();
    await worker.stop();
  });

  it('two workers on one queue process each job exactly once', async () => {
    const store = await ctx.services.stores.createStore({
      name: 'Busy Mart',
      logo_url: 'https://x.example/l.png',
    });
    const a = instrumentedReader();
    const b = instrumentedReader();
    await startWorker(a.reader, 60);
    await startWorker(b.reader, 60);

    const flyers = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => multiPageFlyer(2, `Batch${n}`)));
    const jobs: Array<{ id: string }> = [];
    for (const flyer of flyers)
      jobs.push(await ctx.services.stores.uploadFlyer(store.id, Buffer.from(flyer.bytes)));

    await waitFor(async () => {
      const rows = await Promise.all(jobs.map((j) => jobRow(j.id)));
      return rows.every((r) => r.status === 'completed') ? true : undefined;
    });
    for (const [i, job] of jobs.entries()) {
      expect(await jobRow(job.id)).toMatchObject({
        attempts: 1,
        pages_processed: 2,
        candidates_extracted: 2,
      });
      expect((await candidatesOf(job.id)).map((c) => c.product)).toEqual(
        flyers[i]!.expected.map((e) => e.product),
      );
    }
    // Every job was opened by exactly one of the two workers.
    expect(a.opened.length + b.opened.length).toBe(jobs.length);
  });
});
