import { randomBytes } from 'node:crypto';
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startImageService,
  startImagesApiFake,
  TINY_PNG,
  type ImagesApiFake,
} from '../../test/support/images-fake.ts';

/** The reference microservice on its own (no main service): its API, token, store and restarts. */
let imagesApi: ImagesApiFake;
beforeAll(async () => {
  imagesApi = await startImagesApiFake();
});
afterAll(() => imagesApi.close());

const TOKEN = 'svc-token';
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function pollDone(baseUrl: string, jobId: string) {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const job: any = await (await fetch(`${baseUrl}/jobs/${jobId}`, { headers: auth })).json();
    if (job.status === 'done' || job.status === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('job did not finish');
}

describe('reference image microservice', () => {
  it('downloads url-format answers, saves and serves them', async () => {
    const service = await startImageService({
      IMAGE_SERVICE_TOKEN: TOKEN,
      IMAGE_API_BASE: `${imagesApi.baseUrl}/v1`,
      IMAGE_RESPONSE_FORMAT: 'url',
    });
    try {
      const res = await fetch(`${service.baseUrl}/recipes/r1/steps/3`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ step_index: 2, description: 'Fold the dough', style: 'soft', user_id: 'u1' }),
      });
      expect(res.status).toBe(200);
      const started: any = await res.json();
      expect(started).toEqual({ job_id: expect.stringMatching(/^img_/), status: 'pending' });
      const job = await pollDone(service.baseUrl, started.job_id);
      expect(job).toMatchObject({ status: 'done', error: null, result_urls: [job.result_url] });
      const generation = imagesApi.requests.find((r) => r.body?.prompt?.includes('Fold the dough'))!;
      expect(generation.body).toMatchObject({ response_format: 'url', model: 'gpt-image-1' });
      expect(generation.body.prompt).toContain('Cooking step 3: Fold the dough');
      // The url answer was downloaded from the endpoint, not linked to.
      expect(imagesApi.requests.some((r) => r.path === '/files/tiny.png')).toBe(true);
      expect(job.result_url.startsWith(service.baseUrl)).toBe(true);
      const image = await fetch(job.result_url);
      expect(Buffer.from(await image.arrayBuffer()).equals(TINY_PNG)).toBe(true);
    } finally {
      await service.close();
    }
  });

  it('checks its token, validates input and names a missing IMAGE_API_BASE', async () => {
    const unconfigured = await startImageService({ IMAGE_SERVICE_TOKEN: TOKEN });
    try {
      const post = (path: string, body: unknown, headers: Record<string, string> = auth) =>
        fetch(`${unconfigured.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      expect(
        (await post('/recipes/r1/hero', { title: 't' }, { 'content-type': 'application/json' })).status,
      ).toBe(401);
      expect((await post('/recipes/r1/hero', {})).status).toBe(400);
      expect((await post('/recipes/r1/steps/batch', { style: 's' })).status).toBe(400);
      expect((await post('/recipes/r1/steps/x', { description: 'd' })).status).toBe(404);
      const missing = await post('/recipes/r1/hero', { title: 'Soup' });
      expect(missing.status).toBe(503);
      expect(((await missing.json()) as any).detail).toContain('IMAGE_API_BASE');
      expect((await fetch(`${unconfigured.baseUrl}/images/..%2Fjobs.json`)).status).toBe(404);
    } finally {
      await unconfigured.close();
    }
  });

  it('keeps jobs across a restart and runs the unfinished ones again', async () => {
    const dataDir = `/tmp/mise-image-service-${randomBytes(4).toString('hex')}`;
    mkdirSync(dataDir, { recursive: true });
    const interrupted = {
      job_id: 'img_interrupted',
      user_id: 'u1',
      recipe_id: 'r1',
      kind: 'hero',
      prompts: ['A bowl of soup.'],
      status: 'running',
      result_url: null,
      result_urls: [],
      error: null,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    };
    writeFileSync(path.join(dataDir, 'jobs.json'), JSON.stringify([interrupted]));
    const service = await startImageService({
      IMAGE_SERVICE_TOKEN: TOKEN,
      IMAGE_API_BASE: `${imagesApi.baseUrl}/v1`,
      IMAGE_SERVICE_DATA_DIR: dataDir,
    });
    try {
      const job = await pollDone(service.baseUrl, 'img_interrupted');
      expect(job.status).toBe('done');
      expect(job.result_url).toMatch(/\/images\/img_interrupted-1\.png$/);
    } finally {
      await service.close();
    }
  });
});
