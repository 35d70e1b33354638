import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import {
  closeWithJobs,
  flyerForm,
  rowFlyer,
  TEST_QUEUE,
  tileFlyer,
  waitFor,
} from '../../../test/support/flyers.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';
import type { FlyerWorker } from './jobs.ts';

let ctx: TestApp;
let api: Api;
let admin: TestUser;
let user: TestUser;
let worker: FlyerWorker;

const UPLOAD_MAX_BYTES = 200_000;
const NO_STORE = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  ctx = await startTestApp({ UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES) });
  api = client(ctx.baseUrl);
  admin = await createUser(ctx, { admin: true });
  user = await createUser(ctx, { tier: 'pro' });
  worker = await ctx.services.startFlyerWorker({ queue: TEST_QUEUE });
});

afterAll(async () => {
  await worker?.stop();
  if (ctx) await closeWithJobs(ctx);
});

async function createStore(name: string) {
  const res = await api('POST', '/api/admin/stores', {
    token: admin.token,
    body: { name, logo_url: `https://logos.example/${encodeURIComponent(name)}.png` },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string; logo_url: string };
}

async function uploadAndWait(storeId: string, bytes: Uint8Array, status = 'completed') {
  const res = await api('POST', `/api/admin/stores/${storeId}/promotions/upload`, {
    token: admin.token,
    rawBody: flyerForm(bytes),
  });
  expect(res.status).toBe(202);
  const jobId = res.body.job_id as string;
  const job = await waitFor(async () => {
    const jobs = await api('GET', `/api/admin/stores/${storeId}/jobs`, { token: admin.token });
    const found = jobs.body.jobs.find((j: { id: string }) => j.id === jobId);
    return found?.status === status ? found : undefined;
  });
  return { upload: res.body, job };
}

describe('admin routes are for admins only', () => {
  it.each([
    ['POST', '/api/admin/stores'],
    ['POST', `/api/admin/stores/${NO_STORE}/promotions/upload`],
    ['GET', `/api/admin/stores/${NO_STORE}/jobs`],
    ['GET', `/api/admin/stores/${NO_STORE}/candidates`],
    ['PUT', `/api/admin/candidates/${NO_STORE}`],
    ['DELETE', `/api/admin/candidates/${NO_STORE}`],
    ['POST', `/api/admin/stores/${NO_STORE}/promotions/promote`],
  ])('%s %s: 401 without a token, 403 for a non-admin', async (method, path) => {
    const body = method === 'GET' || method === 'DELETE' ? undefined : {};
    expectProblem(await api(method, path, { body }), 401, 'unauthorized');
    expectProblem(await api(method, path, { token: user.token, body }), 403, 'forbidden');
  });
});

describe('stores', () => {
  it('creates a store, rejects duplicates case-insensitively and bad input', async () => {
    const res = await api('POST', '/api/admin/stores', {
      token: admin.token,
      body: { name: '  Corner Market ', logo_url: 'https://logos.example/corner.png', extra: 1 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Corner Market',
      logo_url: 'https://logos.example/corner.png',
    });
    const dup = await api('POST', '/api/admin/stores', {
      token: admin.token,
      body: { name: 'CORNER market', logo_url: 'https://x.example/a.png' },
    });
    expectProblem(dup, 409, 'conflict');
    for (const body of [
      { name: '', logo_url: 'https://x.example/a.png' },
      { name: 'x'.repeat(101), logo_url: 'https://x.example/a.png' },
      { name: 'Ok', logo_url: 'ftp://x.example/a.png' },
      { name: 'Ok', logo_url: 'not a url' },
      { name: 'Ok' },
    ]) {
      expectProblem(
        await api('POST', '/api/admin/stores', { token: admin.token, body }),
        400,
        'validation_error',
      );
    }
  });

  it('lists stores without auth, with promotion_count and last_updated', async () => {
    const store = await createStore('Listing Store');
    const res = await api('GET', '/api/stores');
    expect(res.status).toBe(200);
    const listed = res.body.find((s: { id: string }) => s.id === store.id);
    expect(listed).toEqual({
      id: store.id,
      name: 'Listing Store',
      logo_url: store.logo_url,
      last_updated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      promotion_count: 0,
    });
  });
});

describe('flyer upload', () => {
  it('validates the store, the field, the content and the size', async () => {
    const store = await createStore('Upload Checks');
    const { bytes } = await rowFlyer();
    const upload = (id: string, form: FormData) =>
      api('POST', `/api/admin/stores/${id}/promotions/upload`, { token: admin.token, rawBody: form });

    expectProblem(await upload(NO_STORE, flyerForm(bytes)), 404, 'not_found');
    expectProblem(await upload('not-a-uuid', flyerForm(bytes)), 404, 'not_found');
    // Named .pdf and typed application/pdf, but not a PDF by content.
    const fake = new TextEncoder().encode('Hello, this is plain text pretending to be a flyer.');
    expectProblem(await upload(store.id, flyerForm(fake)), 415, 'unsupported_media_type');
    expectProblem(await upload(store.id, flyerForm(bytes, { field: 'document' })), 400, 'validation_error');
    const big = new Uint8Array(UPLOAD_MAX_BYTES + 10);
    big.set(new TextEncoder().encode('%PDF-1.7\n'));
    expectProblem(await upload(store.id, flyerForm(big)), 413, 'payload_too_large');
    const json = await api('POST', `/api/admin/stores/${store.id}/promotions/upload`, {
      token: admin.token,
      body: { file: 'x' },
    });
    expectProblem(json, 415, 'unsupported_media_type');
    for (const contentType of ['multipart/form-data', 'multipart/form-data; boundary=xyz']) {
      const malformed = await api('POST', `/api/admin/stores/${store.id}/promotions/upload`, {
        token: admin.token,
        rawBody: 'not multipart at all',
        headers: { 'content-type': contentType },
      });
      expectProblem(malformed, 400, 'validation_error');
    }
  });

  it('accepts a PDF (202), processes it in the background and reports the job', async () => {
    const store = await createStore('Row Market');
    const flyer = await rowFlyer();
    const { upload, job } = await uploadAndWait(store.id, flyer.bytes);
    expect(upload).toEqual({ job_id: expect.any(String), status: 'pending', message: expect.any(String) });
    expect(job).toEqual({
      id: upload.job_id,
      status: 'completed',
      pages_processed: 1,
      candidates_extracted: 3,
      created_at: expect.stringMatching(/Z$/),
      completed_at: expect.stringMatching(/Z$/),
      error: null,
    });

    const candidates = await api('GET', `/api/admin/stores/${store.id}/candidates?job_id=${upload.job_id}`, {
      token: admin.token,
    });
    expect(candidates.status).toBe(200);
    expect(candidates.body.total).toBe(3);
    // In the flyer's reading order.
    expect(candidates.body.items.map((c: { product: string }) => c.product)).toEqual([
      'Butter',
      'Bananen',
      'Vollmilch',
    ]);
    const butter = candidates.body.items.find((c: { product: string }) => c.product === 'Butter');
    expect(butter).toEqual({
      id: expect.any(String),
      job_id: upload.job_id,
      product: 'Butter',
      brand: 'Kerrygold',
      original_price: 3.49,
      discounted_price: 2.49,
      unit: '250 g',
      valid_until: '2030-10-17',
      page: 1,
      confidence: expect.any(Number),
      // Where it was read on the page (PDF points, top-left origin): the review screen draws it.
      box: {
        x: expect.any(Number),
        y: expect.any(Number),
        width: expect.any(Number),
        height: expect.any(Number),
      },
      status: 'candidate',
    });
    expect(butter.box.x).toBeLessThan(100);
    expect(butter.box.width).toBeGreaterThan(100);
    // Candidates are never live: users see nothing yet.
    const visible = await api('GET', `/api/stores/${store.id}/promotions`);
    expect(visible.body).toEqual({ store_name: 'Row Market', items: [], total: 0 });

    // A low-confidence candidate is kept for audit, listed only when asked, and not promoted with its job.
    await sql`update promotions set confidence = 0.3 where id = ${butter.id}`.execute(ctx.database.db);
    const listed = async (query: string) =>
      (
        await api('GET', `/api/admin/stores/${store.id}/candidates?job_id=${upload.job_id}${query}`, {
          token: admin.token,
        })
      ).body;
    expect((await listed('')).items.map((c: { product: string }) => c.product)).toEqual([
      'Bananen',
      'Vollmilch',
    ]);
    expect((await listed('')).total).toBe(2);
    expect((await listed('&include_low_confidence=true')).total).toBe(3);
    const promoted = await api('POST', `/api/admin/stores/${store.id}/promotions/promote`, {
      token: admin.token,
      body: { job_id: upload.job_id },
    });
    expect(promoted.body).toEqual({ promoted: 2 });
    const after = (await listed('&include_low_confidence=true')).items;
    expect(after.find((c: { product: string }) => c.product === 'Butter').status).toBe('candidate');
  });

  it('jobs and candidates of an unknown store are 404', async () => {
    for (const path of [`/api/admin/stores/${NO_STORE}/jobs`, `/api/admin/stores/bad-id/candidates`]) {
      expectProblem(await api('GET', path, { token: admin.token }), 404, 'not_found');
    }
  });

  it('a flyer that cannot be read fails and keeps its error', async () => {
    const store = await createStore('Broken Flyers');
    const corrupt = new TextEncoder().encode('%PDF-1.4\nthis is not really a pdf body\n%%EOF');
    const { job } = await uploadAndWait(store.id, corrupt, 'failed');
    expect(job.error).toMatch(/PDF/);
    expect(job.completed_at).toMatch(/Z$/);
    expect(job.candidates_extracted).toBe(0);
  });
});

describe('review and promotion', () => {
  let store: { id: string; name: string };
  let jobId: string;
  let items: Array<{ id: string; product: string; brand: string; status: string }>;

  beforeAll(async () => {
    store = await createStore('Tile Foods');
    const { upload } = await uploadAndWait(store.id, (await tileFlyer()).bytes);
    jobId = upload.job_id;
    const res = await api('GET', `/api/admin/stores/${store.id}/candidates`, { token: admin.token });
    items = res.body.items;
    expect(res.body.total).toBe(4);
  });

  const byProduct = (name: string) => items.find((i) => i.product === name)!;

  it('corrects a candidate', async () => {
    const milk = byProduct('Organic Whole Milk');
    const res = await api('PUT', `/api/admin/candidates/${milk.id}`, {
      token: admin.token,
      body: { product: 'Organic Milk', discounted_price: 2.79, unit: '1 gal' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: milk.id,
      product: 'Organic Milk',
      discounted_price: 2.79,
      original_price: 3.49,
      status: 'candidate',
    });
    const tooHigh = await api('PUT', `/api/admin/candidates/${milk.id}`, {
      token: admin.token,
      body: { discounted_price: 9.99 },
    });
    expectProblem(tooHigh, 400, 'validation_error');
    expectProblem(
      await api('PUT', `/api/admin/candidates/${milk.id}`, {
        token: admin.token,
        body: { valid_until: '31.12.2030' },
      }),
      400,
      'validation_error',
    );
    expectProblem(
      await api('PUT', `/api/admin/candidates/${NO_STORE}`, { token: admin.token, body: {} }),
      404,
      'not_found',
    );
  });

  it('rejects a candidate (204) and promotes by ids and by job', async () => {
    const avocados = byProduct('Avocados');
    const reject = await api('DELETE', `/api/admin/candidates/${avocados.id}`, { token: admin.token });
    expect(reject.status).toBe(204);
    expectProblem(
      await api('DELETE', `/api/admin/candidates/nope`, { token: admin.token }),
      404,
      'not_found',
    );

    const bananas = byProduct('Bananas');
    const one = await api('POST', `/api/admin/stores/${store.id}/promotions/promote`, {
      token: admin.token,
      body: { candidate_ids: [bananas.id] },
    });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ promoted: 1 });
    const rest = await api('POST', `/api/admin/stores/${store.id}/promotions/promote`, {
      token: admin.token,
      body: { job_id: jobId },
    });
    // Milk and cheese; the rejected avocados and the already live bananas are not counted.
    expect(rest.body).toEqual({ promoted: 2 });

    for (const body of [
      {},
      { candidate_ids: ['x'] },
      { candidate_ids: [] },
      { job_id: jobId, candidate_ids: [bananas.id] },
    ]) {
      expectProblem(
        await api('POST', `/api/admin/stores/${store.id}/promotions/promote`, { token: admin.token, body }),
        400,
        'validation_error',
      );
    }
    expectProblem(
      await api('POST', `/api/admin/stores/${NO_STORE}/promotions/promote`, {
        token: admin.token,
        body: { job_id: jobId },
      }),
      404,
      'not_found',
    );

    const listed = await api('GET', `/api/admin/stores/${store.id}/candidates?job_id=${jobId}`, {
      token: admin.token,
    });
    const statuses = Object.fromEntries(
      listed.body.items.map((i: { product: string; status: string }) => [i.product, i.status]),
    );
    expect(statuses).toEqual({
      Bananas: 'live',
      Avocados: 'rejected',
      'Organic Milk': 'live',
      'Cheddar Cheese': 'live',
    });
  });

  it('users see live, still valid promotions, searchable and paged', async () => {
    const res = await api('GET', `/api/stores/${store.id}/promotions`);
    expect(res.status).toBe(200);
    expect(res.body.store_name).toBe('Tile Foods');
    expect(res.body.total).toBe(3);
    expect(res.body.items.map((i: { product: string }) => i.product)).toEqual([
      'Bananas',
      'Cheddar Cheese',
      'Organic Milk',
    ]);
    expect(res.body.items[0]).toEqual({
      id: byProduct('Bananas').id,
      product: 'Bananas',
      brand: 'Dole',
      original_price: 0.79,
      discounted_price: 0.59,
      unit: 'per lb',
      valid_until: '2030-12-30',
    });
    const byBrand = await api('GET', `/api/stores/${store.id}/promotions?q=tillamook`);
    expect(byBrand.body.items.map((i: { product: string }) => i.product)).toEqual(['Cheddar Cheese']);
    expect(byBrand.body.total).toBe(1);
    const paged = await api('GET', `/api/stores/${store.id}/promotions?limit=1&offset=1`);
    expect(paged.body.items.map((i: { product: string }) => i.product)).toEqual(['Cheddar Cheese']);
    expect(paged.body.total).toBe(3);
    expectProblem(await api('GET', `/api/stores/${store.id}/promotions?limit=201`), 400, 'validation_error');
    expect((await api('GET', `/api/stores/${store.id}/promotions?limit=200`)).status).toBe(200);
    expectProblem(await api('GET', `/api/stores/${store.id}/promotions?offset=-1`), 400, 'validation_error');
    expectProblem(await api('GET', `/api/stores/${NO_STORE}/promotions`), 404, 'not_found');
  });

  it('expired promotions disappear; store counts and last_updated follow', async () => {
    const before = (await api('GET', '/api/stores')).body.find((s: { id: string }) => s.id === store.id);
    expect(before.promotion_count).toBe(3);
    const cheese = byProduct('Cheddar Cheese');
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await api('PUT', `/api/admin/candidates/${cheese.id}`, {
      token: admin.token,
      body: { valid_until: yesterday },
    });
    const after = (await api('GET', '/api/stores')).body.find((s: { id: string }) => s.id === store.id);
    expect(after.promotion_count).toBe(2);
    expect(after.last_updated >= before.last_updated).toBe(true);
    const res = await api('GET', `/api/stores/${store.id}/promotions`);
    expect(res.body.items.map((i: { product: string }) => i.product)).toEqual(['Bananas', 'Organic Milk']);
  });
});
