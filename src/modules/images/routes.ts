import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { callerOf } from '../../platform/http/auth.ts';
import { presentJob, presentStarted } from './presenter.ts';
import {
  BatchBody,
  HeroBody,
  ImageJobSchema,
  JobParams,
  RecipeParams,
  StartedJob,
  StepBody,
  StepParams,
} from './schemas.ts';
import type { ImagesService } from './service.ts';

const ERRORS =
  '404 when the recipe is not visible to the caller; 502/504 when the image service fails or times ' +
  'out; 503 not_configured without IMAGE_GEN_URL.';

/** Exactly the four routes of the spec; any other path under /api/image-gen is a 404. */
export async function imagesRoutes(app: FastifyInstance, options: { images: ImagesService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { images } = options;

  r.post('/api/image-gen/recipes/:id/steps/batch', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['image generation'],
      summary: 'Start generating an image for every step of the recipe',
      description: `Forwards {style, user_id, title, steps} to the image service. ${ERRORS}`,
      params: RecipeParams,
      body: BatchBody,
      response: { 200: StartedJob },
    },
    handler: async (request) =>
      presentStarted(await images.startBatch(callerOf(request), request.params.id, request.body)),
  });

  r.post('/api/image-gen/recipes/:id/steps/:n', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['image generation'],
      summary: 'Start generating the image of one step',
      description: `:n is a step number (digits). ${ERRORS}`,
      params: StepParams,
      body: StepBody,
      response: { 200: StartedJob },
    },
    handler: async (request) =>
      presentStarted(
        await images.startStep(callerOf(request), request.params.id, request.params.n, request.body),
      ),
  });

  r.post('/api/image-gen/recipes/:id/hero', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['image generation'],
      summary: 'Start generating the recipe’s hero image',
      description: ERRORS,
      params: RecipeParams,
      body: HeroBody,
      response: { 200: StartedJob },
    },
    handler: async (request) =>
      presentStarted(await images.startHero(callerOf(request), request.params.id, request.body)),
  });

  r.get('/api/image-gen/jobs/:job_id', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['image generation'],
      summary: 'Poll a job started by the caller (404 for anyone else’s)',
      description:
        'When the job is done, its image is attached to the recipe once (hero: first image) if the ' +
        'caller owns the recipe or is an admin.',
      params: JobParams,
      response: { 200: ImageJobSchema },
    },
    handler: async (request) => presentJob(await images.getJob(callerOf(request), request.params.job_id)),
  });
}
