import { createServer, type Server } from 'node:http';
import { sql } from 'kysely';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.ts';
import { HttpImageJobsGateway } from '../../providers/images/image-jobs-gateway.ts';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/factories.ts';
import { client, expectProblem, type Api } from '../../../test/support/http.ts';
import {
  startImageService,
  startImagesApiFake,
  TINY_PNG,
  type ImagesApiFake,
  type RunningImageService,
} from '../../../test/support/images-fake.ts';
import { createRecipe } from '../../../test/support/recipes.ts';

const SERVICE_TOKEN = 'image-service-token';

let imagesApi: ImagesApiFake;
let imageService: RunningImageService;
let ctx: TestApp;
let api: Api;
let owner: TestUser;
let stranger: TestUser;
let admin: TestUser;

beforeAll(async () => {
  imagesApi = await startImagesApiFake();
  imageService = await startImageService({
    IMAGE_SERVICE_TOKEN: SERVICE_TOKEN,
    IMAGE_API_BASE: `${imagesApi.baseUrl}/v1`,
    IMAGE_API_KEY: 'sk-images-key',
    IMAGE_MODEL: 'test-image-model',
    IMAGE_SIZE: '512x512',
  });
  // These tests start many jobs per user; the daily allowance has its own tests below.
  ctx = await startTestApp({
    IMAGE_GEN_URL: imageService.baseUrl,
    IMAGE_GEN_TOKEN: SERVICE_TOKEN,
    IMAGE_JOBS_PER_DAY_FREE: '1000',
  });
  api = client(ctx.baseUrl);
  owner = await createUser(ctx);
  stranger = await createUser(ctx);
  admin = await createUser(ctx, { admin: true });
});
afterAll(async () => {
  await ctx.close();
  await imageService.close();
  await imagesApi.close();
});
beforeEach(() => {
  imagesApi.mode = 'ok';
});

const HERO = { title: 'Tomato soup', description: 'A bowl of smooth tomato soup', style: 'rustic' };

/** Polls until the job finishes (bounded number of polls, no timing assertion). */
async function pollUntilFinished(token: string, jobId: string) {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const res = await api('GET', `/api/image-gen/jobs/${jobId}`, { token });
    if (res.status !== 200 || res.body.status === 'done' || res.body.status === 'failed') return res;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${jobId} did not finish`);
}

const recipeImages = async (token: string, id: string) =>
  (await api('GET', `/api/recipes/${id}`, { token })).body.images as string[];

describe('hero image, end to end through the reference microservice', () => {
  it('forwards with the service token, polls to done, serves the image and attaches it once', async () => {
    const recipe = await createRecipe(ctx, owner);
    const started = await api('POST', `/api/image-gen/recipes/${recipe.id}/hero`, {
      token: owner.token,
      body: { ...HERO, extra: 'kept', user_id: 'spoofed' },
    });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ job_id: expect.stringMatching(/^img_[0-9a-f]+$/), status: 'pending' });

    const forwarded = imageService.received.find((r) => r.path === `/recipes/${recipe.id}/hero`)!;
    expect(forwarded.method).toBe('POST');
    expect(forwarded.headers.authorization).toBe(`Bearer ${SERVICE_TOKEN}`);
    expect(JSON.stringify(forwarded.headers)).not.toContain(owner.token);
    expect(forwarded.body).toEqual({ ...HERO, extra: 'kept', user_id: owner.user.id });

    const done = await pollUntilFinished(owner.token, started.body.job_id);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      job_id: started.body.job_id,
      status: 'done',
      result_url: expect.stringMatching(new RegExp(`^${imageService.baseUrl}/images/img_[0-9a-f]+-1\\.png$`)),
      error: null,
    });
    const poll = imageService.received.find((r) => r.path === `/jobs/${started.body.job_id}`)!;
    expect(poll.headers.authorization).toBe(`Bearer ${SERVICE_TOKEN}`);

    // The result URL is real.
    const image = await fetch(done.body.result_url);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(TINY_PNG)).toBe(true);

    // The OpenAI-compatible endpoint got the model, size, key and a prompt built from the request.
    const generation = imagesApi.requests.at(-1)!;
    expect(generation.headers.authorization).toBe('Bearer sk-images-key');
    expect(generation.body).toMatchObject({ model: 'test-image-model', size: '512x512', n: 1 });
    expect(generation.body.prompt).toContain('Tomato soup');
    expect(generation.body.prompt).toContain('rustic');

    // Attached as the first image, once, however often the job is polled.
    expect(await recipeImages(owner.token, recipe.id)).toEqual([done.body.result_url]);
    await pollUntilFinished(owner.token, started.body.job_id);
    await pollUntilFinished(owner.token, started.body.job_id);
    expect(await recipeImages(owner.token, recipe.id)).toEqual([done.body.result_url]);
  });

  it('answers 404 to anyone but the user who started the job', async () => {
    const recipe = await createRecipe(ctx, owner, { is_public: true });
    const started = await api('POST', `/api/image-gen/recipes/${recipe.id}/hero`, {
      token: owner.token,
      body: HERO,
    });
    expectProblem(
      await api('GET', `/api/image-gen/jobs/${started.body.job_id}`, { token: stranger.token }),
      404,
      'not_found',
    );
    expectProblem(
      await api('GET', `/api/image-gen/jobs/${started.body.job_id}`, { token: admin.token }),
      404,
      'not_found',
    );
    expectProblem(
      await api('GET', '/api/image-gen/jobs/img_unknown', { token: owner.token }),
      404,
      'not_found',
    );
    expectProblem(
      await api('GET', '/api/image-gen/jobs/..%2F..%2Fetc', { token: owner.token }),
      404,
      'not_found',
    );
    await pollUntilFinished(owner.token, started.body.job_id);
  });

  it('reports a failed generation with its error', async () => {
    imagesApi.mode = 'fail';
    const recipe = await createRecipe(ctx, owner);
    const started = await api('POST', `/api/image-gen/recipes/${recipe.id}/hero`, {
      token: owner.token,
      body: HERO,
    });
    const failed = await pollUntilFinished(owner.token, started.body.job_id);
    expect(failed.body).toEqual({
      job_id: started.body.job_id,
      status: 'failed',
      result_url: null,
      error: expect.stringContaining('500'),
    });
    expect(await recipeImages(owner.token, recipe.id)).toEqual([]);
  });
});

describe('step images', () => {
  it('forwards one step to recipes/:id/steps/:n and appends the image', async () => {
    const recipe = await createRecipe(ctx, owner);
    const body = { step_index: 1, description: 'Simmer the tomatoes', style: 'bright' };
    const started = await api('POST', `/api/image-gen/recipes/${recipe.id}/steps/2`, {
      token: owner.token,
      body,
    });
    expect(started.status).toBe(200);
    const forwarded = imageService.received.find((r) => r.path === `/recipes/${recipe.id}/steps/2`)!;
    expect(forwarded.body).toEqual({ ...body, user_id: owner.user.id });
    const done = await pollUntilFinished(owner.token, started.body.job_id);
    expect(done.body.status).toBe('done');
    expect(await recipeImages(owner.token, recipe.id)).toEqual([done.body.result_url]);
  });

  it('generates every step in a batch with the recipe’s step texts', async () => {
    const recipe = await createRecipe(ctx, owner, { steps: ['Boil water.', 'Add pasta.', 'Drain.'] });
    const started = await api('POST', `/api/image-gen/recipes/${recipe.id}/steps/batch`, {
      token: owner.token,
      body: { style: 'minimal' },
    });
    expect(started.status).toBe(200);
    const forwarded = imageService.received.find((r) => r.path === `/recipes/${recipe.id}/steps/batch`)!;
    expect(forwarded.body).toMatchObject({
      style: 'minimal',
      user_id: owner.user.id,
      steps: ['Boil water.', 'Add pasta.', 'Drain.'],
    });
    const done = await pollUntilFinished(owner.token, started.body.job_id);
    expect(done.body.status).toBe('done');
    const images = await recipeImages(owner.token, recipe.id);
    expect(images).toHaveLength(3);
    expect(images[0]).toBe(done.body.result_url);
  });
});

describe('daily allowance of image jobs', () => {
  it('bounds each Free user’s jobs per UTC day, answers 429 with the reset time, and counts per user', async () => {
    const bounded = await startTestApp({
      IMAGE_GEN_URL: imageService.baseUrl,
      IMAGE_GEN_TOKEN: SERVICE_TOKEN,
      IMAGE_JOBS_PER_DAY_FREE: '2',
      IMAGE_JOBS_PER_DAY_PAID: '3',
    });
    try {
      const call = client(bounded.baseUrl);
      const [free, pro, other, boss] = [
        await createUser(bounded),
        await createUser(bounded, { tier: 'pro' }),
        await createUser(bounded),
        await createUser(bounded, { admin: true }),
      ];
      const recipe = await createRecipe(bounded, null);
      const start = (token: string) =>
        call('POST', `/api/image-gen/recipes/${recipe.id}/hero`, { token, body: HERO });
      expect((await start(free.token)).status).toBe(200);
      expect((await start(free.token)).status).toBe(200);
      const before = imageService.received.length;
      const refused = await start(free.token);
      expectProblem(refused, 429, 'rate_limited');
      expect(refused.body.reset_at).toMatch(/T00:00:00\.000Z$/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(imageService.received.length).toBe(before); // never forwarded
      expect((await start(other.token)).status).toBe(200);
      const proStatuses = [];
      for (let i = 0; i < 4; i++) proStatuses.push((await start(pro.token)).status);
      expect(proStatuses).toEqual([200, 200, 200, 429]);
      for (let i = 0; i < 4; i++) expect((await start(boss.token)).status).toBe(200);
    } finally {
      await bounded.close();
    }
  });

  it('gives a job back when the image service was never reached', async () => {
    const unreachable = await startTestApp({
      IMAGE_GEN_URL: 'http://127.0.0.1:1',
      IMAGE_JOBS_PER_DAY_FREE: '1',
    });
    try {
      const call = client(unreachable.baseUrl);
      const user = await createUser(unreachable);
      const recipe = await createRecipe(unreachable, null);
      for (let i = 0; i < 3; i++) {
        const res = await call('POST', `/api/image-gen/recipes/${recipe.id}/hero`, {
          token: user.token,
          body: HERO,
        });
        expectProblem(res, 502, 'upstream_error');
      }
    } finally {
      await unreachable.close();
    }
  });
});

describe('attaching is one transaction', () => {
  it('a failure part-way through a batch attaches nothing; the next poll attaches every image once', async () => {
    const recipe = await createRecipe(ctx, owner, { steps: ['Boil water.', 'Add pasta.', 'Drain.'] });
    // Test-only fault, installed from the test: this recipe's second image fails to be stored.
    const db = ctx.database.db;
    await sql`
      create or replace function test_fail_second_image() returns trigger language plpgsql as $$
      begin
        if new.id = ${sql.lit(recipe.id)}::uuid and cardinality(new.images) = 2 then
          raise exception 'injected image failure';
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger test_fail_second_image before update on recipes
      for each row execute function test_fail_second_image()`.execute(db);
    let jobId: string;
    try {
      const started = await api('POST', `/api/image-gen/recipes/${recipe.id}/steps/batch`, {
        token: owner.token,
        body: { style: 'minimal' },
      });
      jobId = started.body.job_id;
      expect((await pollUntilFinished(owner.token, jobId)).body.status).toBe('done');
      expect(await recipeImages(owner.token, recipe.id)).toEqual([]);
    } finally {
      await sql`drop trigger test_fail_second_image on recipes`.execute(db);
      await sql`drop function test_fail_second_image()`.execute(db);
    }
    await api('GET', `/api/image-gen/jobs/${jobId}`, { token: owner.token });
    await api('GET', `/api/image-gen/jobs/${jobId}`, { token: owner.token });
    expect(await recipeImages(owner.token, recipe.id)).toHaveLength(3);
  });
});

describe('access and validation', () => {
  it('answers 404 for a recipe the caller cannot see, an unknown or a malformed id', async () => {
    const hidden = await createRecipe(ctx, owner);
    const before = imageService.received.length;
    for (const id of [hidden.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', '..']) {
      expectProblem(
        await api('POST', `/api/image-gen/recipes/${id}/hero`, { token: stranger.token, body: HERO }),
        404,
        'not_found',
      );
    }
    expect(imageService.received.length).toBe(before);
  });

  it('lets anyone illustrate a visible recipe but attaches only for its owner or an admin', async () => {
    const catalog = await createRecipe(ctx, null);
    const byStranger = await api('POST', `/api/image-gen/recipes/${catalog.id}/hero`, {
      token: stranger.token,
      body: HERO,
    });
    expect(byStranger.status).toBe(200);
    expect((await pollUntilFinished(stranger.token, byStranger.body.job_id)).body.status).toBe('done');
    expect(await recipeImages(stranger.token, catalog.id)).toEqual([]);

    const byAdmin = await api('POST', `/api/image-gen/recipes/${catalog.id}/hero`, {
      token: admin.token,
      body: HERO,
    });
    const done = await pollUntilFinished(admin.token, byAdmin.body.job_id);
    expect(await recipeImages(stranger.token, catalog.id)).toEqual([done.body.result_url]);
  });

  it('validates bodies and answers 404 for any other path under /api/image-gen', async () => {
    const recipe = await createRecipe(ctx, owner);
    const base = `/api/image-gen/recipes/${recipe.id}`;
    const token = owner.token;
    expectProblem(
      await api('POST', `${base}/hero`, { token, body: { style: 'x' } }),
      400,
      'validation_error',
    );
    expectProblem(await api('POST', `${base}/steps/batch`, { token, body: {} }), 400, 'validation_error');
    expectProblem(
      await api('POST', `${base}/steps/1`, {
        token,
        body: { step_index: 'one', description: 'd', style: 's' },
      }),
      400,
      'validation_error',
    );
    const step = { step_index: 0, description: 'd', style: 's' };
    expectProblem(await api('POST', `${base}/steps/abc`, { token, body: step }), 404, 'not_found');
    expectProblem(await api('POST', `${base}/steps/..%2F..%2Fjobs`, { token, body: step }), 404, 'not_found');
    expectProblem(await api('POST', `${base}/other`, { token, body: HERO }), 404, 'not_found');
    expectProblem(await api('GET', `${base}/hero`, { token }), 404, 'not_found');
    expectProblem(await api('GET', '/api/image-gen/health', { token }), 404, 'not_found');
    expectProblem(await api('POST', '/api/image-gen/jobs/abc', { token, body: {} }), 404, 'not_found');
  });

  it('requires a bearer token', async () => {
    const recipe = await createRecipe(ctx, owner);
    expectProblem(
      await api('POST', `/api/image-gen/recipes/${recipe.id}/hero`, { body: HERO }),
      401,
      'unauthorized',
    );
    expectProblem(await api('GET', '/api/image-gen/jobs/img_x'), 401, 'unauthorized');
  });

  it('the microservice refuses callers without its token', async () => {
    const res = await fetch(`${imageService.baseUrl}/jobs/img_x`, {
      headers: { authorization: 'Bearer wrong' },
    });
    expect(res.status).toBe(401);
  });
});

describe('upstream failures (gateway)', () => {
  let hanging: Server;
  let hangingUrl: string;
  beforeAll(async () => {
    hanging = createServer((req, res) => {
      if (req.url?.startsWith('/broken')) {
        res.writeHead(500).end('oops');
      } else if (req.url?.startsWith('/garbage')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"job_id": "../x"}');
      }
      // anything else never answers
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    hanging.closeAllConnections();
    await new Promise<void>((resolve) => hanging.close(() => resolve()));
  });

  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'resolved',
      (error: unknown) => (error instanceof AppError ? `${error.status} ${error.code}` : String(error)),
    );

  it('maps timeouts to 504, unreachable, non-2xx and malformed answers to 502', async () => {
    const gateway = (baseUrl: string) =>
      new HttpImageJobsGateway({ baseUrl, token: undefined, timeoutMs: 300 });
    expect(await codeOf(gateway(hangingUrl).start('recipes/x/hero', {}))).toBe('504 upstream_timeout');
    expect(await codeOf(gateway(`${hangingUrl}/broken`).get('img_1'))).toBe('502 upstream_error');
    expect(await codeOf(gateway(`${hangingUrl}/garbage`).start('recipes/x/hero', {}))).toBe(
      '502 upstream_error',
    );
    expect(await codeOf(gateway('http://127.0.0.1:1').get('img_1'))).toBe('502 upstream_error');
  });

  it('answers 503 not_configured naming IMAGE_GEN_URL when it is not set', async () => {
    const bare = await startTestApp();
    try {
      const user = await createUser(bare);
      const recipe = await createRecipe(bare, user);
      const res = await client(bare.baseUrl)('POST', `/api/image-gen/recipes/${recipe.id}/hero`, {
        token: user.token,
        body: HERO,
      });
      expect(expectProblem(res, 503, 'not_configured').detail).toContain('IMAGE_GEN_URL');
    } finally {
      await bare.close();
    }
  });
});

describe('npm run images:backfill: pictures for the catalog', () => {
  it('gives each catalog recipe without an image one hero image, resumes a stopped run, and bounds new jobs', async () => {
    const catalog = await Promise.all(
      [1, 2, 3].map((i) => createRecipe(ctx, null, { title: `Backfill soup ${i}` })),
    );
    const operator = {
      id: admin.user.id,
      email: admin.email,
      tier: admin.user.tier,
      isAdmin: true,
      record: admin.user,
    };
    const fast = {
      perMinute: 60_000,
      pollIntervalMs: 20,
      sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 5))),
    };
    const jobsOf = async (recipeId: string) =>
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from image_jobs where recipe_id = ${recipeId}`.execute(ctx.database.db)
      ).rows[0]!.n;

    // A run that starts one job and stops before any poll (a crash, or its timeout).
    const stopped = await ctx.services.images.backfillCatalog(operator, {
      ...fast,
      maxJobs: 1,
      pollTimeoutMs: 0,
    });
    expect(stopped).toMatchObject({ started: 1, attached: 0 });
    expect(stopped.left).toBe(stopped.total);

    const resumed = await ctx.services.images.backfillCatalog(operator, {
      ...fast,
      maxJobs: 100,
      pollTimeoutMs: 30_000,
    });
    expect(resumed).toMatchObject({ resumed: 1, failed: 0, left: 0 });
    expect(resumed.attached).toBe(resumed.total);
    for (const recipe of catalog) {
      expect(await recipeImages(owner.token, recipe.id)).toHaveLength(1);
      // The stopped run's job was polled, not started again: one job per recipe.
      expect(await jobsOf(recipe.id)).toBe(1);
    }

    const again = await ctx.services.images.backfillCatalog(operator, {
      ...fast,
      maxJobs: 100,
      pollTimeoutMs: 1000,
    });
    expect(again).toMatchObject({ total: 0, started: 0 });
  }, 60_000);

  it('answers 503-style not_configured without an image service', async () => {
    const bare = await startTestApp();
    try {
      const boss = await createUser(bare, { admin: true });
      const operator = {
        id: boss.user.id,
        email: boss.email,
        tier: boss.user.tier,
        isAdmin: true,
        record: boss.user,
      };
      await expect(
        bare.services.images.backfillCatalog(operator, {
          maxJobs: 1,
          perMinute: 1,
          pollIntervalMs: 1,
          pollTimeoutMs: 1,
        }),
      ).rejects.toMatchObject({ code: 'not_configured' });
    } finally {
      await bare.close();
    }
  });
});
