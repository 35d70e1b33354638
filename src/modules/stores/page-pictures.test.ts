import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import { flyerForm, multiPageFlyer, rowFlyer } from '../../../test/support/flyers.ts';
import { hugeImagePdf } from '../../../test/support/hostile-pdfs.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';

/**
 * Flyer pages drawn for the review console, from the stored upload (no worker needed): PNG with
 * the scale that maps candidate boxes onto it, cached, admin only.
 */
let ctx: TestApp;
let api: Api;
let admin: TestUser;
let cook: TestUser;
let storeId: string;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function upload(bytes: Uint8Array): Promise<string> {
  const res = await api('POST', `/api/admin/stores/${storeId}/promotions/upload`, {
    token: admin.token,
    rawBody: flyerForm(bytes),
  });
  expect(res.status).toBe(202);
  return res.body.job_id;
}

async function picture(jobId: string, page: number | string, token = admin.token) {
  const res = await fetch(`${ctx.baseUrl}/api/admin/jobs/${jobId}/pages/${page}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

beforeAll(async () => {
  ctx = await startTestApp();
  api = client(ctx.baseUrl);
  admin = await createUser(ctx, { admin: true });
  cook = await createUser(ctx, { tier: 'pro' });
  const store = await api('POST', '/api/admin/stores', {
    token: admin.token,
    body: { name: 'Picture Market', logo_url: 'https://example.test/logo.png' },
  });
  storeId = store.body.id;
});
afterAll(async () => ctx?.close());

describe('flyer page pictures', () => {
  it('draws a page as PNG about 1200 px wide, with the scale from PDF points', async () => {
    const jobId = await upload((await rowFlyer()).bytes);
    const { res, bytes } = await picture(jobId, 1);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const width = bytes.readUInt32BE(16);
    const height = bytes.readUInt32BE(20);
    const scale = Number(res.headers.get('x-render-scale'));
    // An A4 page is 595 × 842 points.
    expect(width).toBeGreaterThanOrEqual(1190);
    expect(width).toBeLessThanOrEqual(1210);
    expect(scale).toBeCloseTo(width / 595, 2);
    expect(height / scale).toBeCloseTo(842, -1);
  });

  it('draws each page once: a second look is served from the cache', async () => {
    const jobId = await upload((await multiPageFlyer(2)).bytes);
    const first = await picture(jobId, 2);
    expect(first.res.status).toBe(200);
    const cached = await ctx.services.pagePictures.picture(jobId, 2);
    expect(cached.png.equals(first.bytes)).toBe(true);
    const again = await picture(jobId, 2);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(again.res.headers.get('x-render-scale')).toBe(first.res.headers.get('x-render-scale'));
  });

  it('answers 404 for a page the flyer does not have, a malformed page or an unknown job', async () => {
    const jobId = await upload((await rowFlyer()).bytes);
    expectProblem(
      await api('GET', `/api/admin/jobs/${jobId}/pages/2`, { token: admin.token }),
      404,
      'not_found',
    );
    expectProblem(
      await api('GET', `/api/admin/jobs/${jobId}/pages/0`, { token: admin.token }),
      404,
      'not_found',
    );
    expectProblem(
      await api('GET', `/api/admin/jobs/${jobId}/pages/1.5`, { token: admin.token }),
      404,
      'not_found',
    );
    expectProblem(
      await api('GET', `/api/admin/jobs/${jobId}/pages/-1`, { token: admin.token }),
      404,
      'not_found',
    );
    expectProblem(
      await api('GET', '/api/admin/jobs/00000000-0000-4000-8000-000000000000/pages/1', {
        token: admin.token,
      }),
      404,
      'not_found',
    );
    expectProblem(
      await api('GET', '/api/admin/jobs/not-a-uuid/pages/1', { token: admin.token }),
      404,
      'not_found',
    );
  });

  it('is for admins only', async () => {
    const jobId = await upload((await rowFlyer()).bytes);
    expectProblem(
      await api('GET', `/api/admin/jobs/${jobId}/pages/1`, { token: cook.token }),
      403,
      'forbidden',
    );
    const anonymous = await api('GET', `/api/admin/jobs/${jobId}/pages/1`);
    expectProblem(anonymous, 401, 'unauthorized');
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers 422 unreadable_flyer for a stored file that cannot be drawn, never a 500', async () => {
    const jobId = await upload(Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF broken'));
    const res = await api('GET', `/api/admin/jobs/${jobId}/pages/1`, { token: admin.token });
    expectProblem(res, 422, 'unreadable_flyer');
  });

  it('draws a hostile flyer within the reading limits: an image declared at 100,000 × 100,000 pixels is refused, never a 500', async () => {
    const jobId = await upload(await hugeImagePdf(100_000, 100_000));
    const res = await api('GET', `/api/admin/jobs/${jobId}/pages/1`, { token: admin.token });
    expectProblem(res, 422, 'unreadable_flyer');
    expect(res.body.detail).toMatch(/FLYER_MAX_IMAGE_PIXELS/);
    // The service still draws other flyers.
    const next = await picture(await upload((await rowFlyer()).bytes), 1);
    expect(next.res.status).toBe(200);
  });
});
