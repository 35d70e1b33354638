import { createReadStream, existsSync } from 'node:fs';
import { timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { OpenAiImagesClient } from '../providers/images/openai-images.ts';
import type { ImageServiceConfig } from './config.ts';
import { JobStore, type Job } from './job-store.ts';
import { batchPrompts, heroPrompt, stepPrompt } from './prompts.ts';
import { ImageWorker } from './worker.ts';

export interface ImageService {
  app: FastifyInstance;
  worker: ImageWorker;
  /** Sets the base of result URLs once the listen address is known. */
  setPublicUrl(url: string): void;
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;
const IMAGE_FILE = /^[A-Za-z0-9_-]{1,160}\.(png|jpg|webp)$/;
const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

function problem(reply: FastifyReply, status: number, code: string, detail: string) {
  return reply
    .code(status)
    .type('application/problem+json')
    .send({ type: 'about:blank', title: code.replaceAll('_', ' '), status, detail, code });
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const present = (job: Job) => ({
  job_id: job.job_id,
  status: job.status,
  result_url: job.result_url,
  result_urls: job.result_urls,
  error: job.error,
});

/**
 * The reference image-generation microservice behind the main service's /api/image-gen proxy:
 * POST recipes/:id/hero | recipes/:id/steps/:n | recipes/:id/steps/batch start jobs, GET jobs/:id
 * polls them, GET images/:file serves the results.
 */
export function buildImageService(
  config: ImageServiceConfig,
  options: { logger?: boolean } = {},
): ImageService {
  let publicUrl = config.publicUrl ?? `http://localhost:${config.port}`;
  const store = new JobStore(config.dataDir);
  const imagesDir = path.join(config.dataDir, 'images');
  const images = config.images;
  const worker = new ImageWorker({
    store,
    generator: new OpenAiImagesClient({
      baseUrl: images.baseUrl ?? 'http://unconfigured.invalid',
      apiKey: images.apiKey,
      model: images.model,
      size: images.size,
      responseFormat: images.responseFormat,
      timeoutMs: images.timeoutMs,
    }),
    imagesDir,
    publicUrl: () => publicUrl,
    concurrency: config.concurrency,
  });
  const app = Fastify({ logger: options.logger ?? true, bodyLimit: 256 * 1024 });

  app.addHook('onRequest', async (request, reply) => {
    const open = request.url === '/health' || request.url.startsWith('/images/');
    if (open || !config.token) return;
    if (!tokenMatches(request.headers.authorization, config.token)) {
      return problem(reply, 401, 'unauthorized', 'A valid Bearer token (IMAGE_SERVICE_TOKEN) is required.');
    }
  });
  app.setNotFoundHandler((_request, reply) => problem(reply, 404, 'not_found', 'Not found.'));
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    return problem(
      reply,
      status,
      status === 500 ? 'internal_error' : 'bad_request',
      status === 500 ? 'Unexpected error.' : error.message,
    );
  });

  const start = (
    reply: FastifyReply,
    recipeId: string,
    kind: Job['kind'],
    body: Record<string, unknown>,
    prompts: string[],
  ) => {
    if (!SAFE_ID.test(recipeId)) return problem(reply, 404, 'not_found', 'Not found.');
    if (prompts.length === 0) {
      return problem(
        reply,
        400,
        'validation_error',
        'Nothing to draw: send title/description (hero, step) or steps (batch).',
      );
    }
    if (!images.baseUrl) {
      return problem(reply, 503, 'not_configured', 'Image generation is not configured: set IMAGE_API_BASE.');
    }
    const userId = typeof body.user_id === 'string' ? body.user_id : null;
    const job = store.create({ user_id: userId, recipe_id: recipeId, kind, prompts });
    // Answered as created (pending): the worker starts it right after.
    const started = { job_id: job.job_id, status: job.status };
    worker.enqueue(job.job_id);
    return reply.code(200).send(started);
  };
  const bodyOf = (body: unknown): Record<string, unknown> =>
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};

  app.post<{ Params: { id: string } }>('/recipes/:id/hero', async (request, reply) => {
    const body = bodyOf(request.body);
    const prompt = heroPrompt(body);
    return start(reply, request.params.id, 'hero', body, prompt ? [prompt] : []);
  });

  app.post<{ Params: { id: string } }>('/recipes/:id/steps/batch', async (request, reply) => {
    const body = bodyOf(request.body);
    return start(reply, request.params.id, 'batch', body, batchPrompts(body));
  });

  app.post<{ Params: { id: string; n: string } }>('/recipes/:id/steps/:n', async (request, reply) => {
    if (!/^\d{1,4}$/.test(request.params.n)) return problem(reply, 404, 'not_found', 'Not found.');
    const body = bodyOf(request.body);
    const prompt = stepPrompt(body, Number(request.params.n));
    return start(reply, request.params.id, 'step', body, prompt ? [prompt] : []);
  });

  app.get<{ Params: { job_id: string } }>('/jobs/:job_id', async (request, reply) => {
    const job = SAFE_ID.test(request.params.job_id) ? store.get(request.params.job_id) : undefined;
    if (!job) return problem(reply, 404, 'not_found', 'No such job.');
    return present(job);
  });

  app.get<{ Params: { file: string } }>('/images/:file', async (request, reply) => {
    const file = request.params.file;
    const full = path.join(imagesDir, file);
    if (!IMAGE_FILE.test(file) || !existsSync(full))
      return problem(reply, 404, 'not_found', 'No such image.');
    const extension = file.slice(file.lastIndexOf('.') + 1);
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    return reply.type(CONTENT_TYPES[extension] ?? 'application/octet-stream').send(createReadStream(full));
  });

  app.get('/health', async () => ({ status: 'ok' }));

  // Jobs a restart interrupted run again.
  for (const job of store.unfinished()) worker.enqueue(job.job_id);

  return {
    app,
    worker,
    setPublicUrl: (url: string) => {
      publicUrl = url;
    },
  };
}
