import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, invalidField } from '../../platform/errors.ts';
import { callerOf } from '../../platform/http/auth.ts';
import { IdParams } from '../../platform/http/ids.ts';
import type { FlyerPagePictures } from './page-pictures.ts';
import type { PricingService } from './pricing.ts';
import {
  presentCandidate,
  presentJob,
  presentOptimisation,
  presentPrices,
  presentPromotion,
  presentStore,
  presentStoreListItem,
} from './presenter.ts';
import {
  CandidateListSchema,
  CandidateSchema,
  CandidatesQuery,
  CreateStoreBody,
  JobListSchema,
  OptimizeSchema,
  PricesSchema,
  PromoteBody,
  PromoteResponse,
  PromotionListSchema,
  PromotionsQuery,
  StoreListItemSchema,
  StoreSchema,
  UpdateCandidateBody,
  UploadAcceptedSchema,
} from './schemas.ts';
import type { StoresService } from './service.ts';

export interface StoresRouteOptions {
  stores: StoresService;
  pricing: PricingService;
  pictures: FlyerPagePictures;
  uploadMaxBytes: number;
  /** Called when the app closes (stops the enqueue-only job queue). */
  onClose: () => Promise<void>;
}

export async function storesRoutes(app: FastifyInstance, options: StoresRouteOptions): Promise<void> {
  const { stores, pricing } = options;
  // Scoped to this plugin: only the flyer upload accepts multipart bodies.
  await app.register(multipart, { limits: { fileSize: options.uploadMaxBytes, files: 1, fields: 10 } });
  app.addHook('onClose', async () => options.onClose());
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { auth: 'admin' as const };

  r.get('/api/stores', {
    config: { auth: 'none' },
    schema: {
      tags: ['stores'],
      summary: 'Stores with their count of live, still valid promotions',
      response: { 200: z.array(StoreListItemSchema) },
    },
    handler: async () => (await stores.listStores()).map(presentStoreListItem),
  });

  r.get('/api/stores/:id/promotions', {
    config: { auth: 'none' },
    schema: {
      tags: ['stores'],
      summary: "A store's live promotions valid today or later; q searches product and brand",
      params: IdParams,
      querystring: PromotionsQuery,
      response: { 200: PromotionListSchema },
    },
    handler: async (request) => {
      const { q, limit, offset } = request.query;
      const result = await stores.listPromotions(request.params.id, q, { limit, offset });
      return { store_name: result.store.name, items: result.rows.map(presentPromotion), total: result.total };
    },
  });

  r.post('/api/admin/stores', {
    config: admin,
    schema: {
      tags: ['admin'],
      summary: 'Create a store (409 conflict when the name exists, case-insensitive)',
      body: CreateStoreBody,
      response: { 201: StoreSchema },
    },
    handler: async (request, reply) =>
      reply.code(201).send(presentStore(await stores.createStore(request.body))),
  });

  r.post('/api/admin/stores/:id/promotions/upload', {
    config: admin,
    bodyLimit: options.uploadMaxBytes + 1024 * 1024,
    schema: {
      tags: ['admin'],
      summary: 'Upload a flyer PDF (multipart field `file`); processed in the background',
      description:
        'The file must be a PDF by content (415 unsupported_media_type otherwise) and at most ' +
        'UPLOAD_MAX_BYTES (413 payload_too_large).',
      consumes: ['multipart/form-data'],
      params: IdParams,
      response: { 202: UploadAcceptedSchema },
    },
    handler: async (request, reply) => {
      await stores.getStore(request.params.id);
      const bytes = await readUploadedFile(request);
      const job = await stores.uploadFlyer(request.params.id, bytes);
      return reply.code(202).send({
        job_id: job.id,
        status: 'pending' as const,
        message: 'The flyer is being processed; poll the store jobs for progress.',
      });
    },
  });

  r.get('/api/admin/stores/:id/jobs', {
    config: admin,
    schema: {
      tags: ['admin'],
      summary: "A store's flyer processing jobs, newest first",
      params: IdParams,
      response: { 200: JobListSchema },
    },
    handler: async (request) => ({ jobs: (await stores.listJobs(request.params.id)).map(presentJob) }),
  });

  r.get('/api/admin/jobs/:id/pages/:page', {
    config: admin,
    schema: {
      tags: ['admin'],
      summary: "A page of a job's flyer drawn as PNG, for reviewing its candidates",
      description:
        'Drawn on the server from the stored PDF and cached. `X-Render-Scale` is the pixels per PDF ' +
        'point: a candidate `box` (PDF points) times it is its place on the picture.',
      params: z.object({ id: z.string(), page: z.string() }),
      produces: ['image/png'],
    },
    handler: async (request, reply) => {
      const page = /^\d{1,4}$/.test(request.params.page) ? Number(request.params.page) : 0;
      const picture = await options.pictures.picture(request.params.id, page);
      return reply
        .type('image/png')
        .header('x-render-scale', picture.scale.toFixed(6))
        .header('cache-control', 'private, max-age=3600')
        .send(picture.png);
    },
  });

  r.get('/api/admin/stores/:id/candidates', {
    config: admin,
    schema: {
      tags: ['admin'],
      summary: 'Extracted promotions of a store (optionally of one job), any status',
      params: IdParams,
      querystring: CandidatesQuery,
      response: { 200: CandidateListSchema },
    },
    handler: async (request) => {
      const { job_id, limit, offset, include_low_confidence } = request.query;
      const result = await stores.listCandidates(
        request.params.id,
        job_id,
        { limit, offset },
        include_low_confidence,
      );
      return { items: result.rows.map(presentCandidate), total: result.total };
    },
  });

  r.put('/api/admin/candidates/:id', {
    config: admin,
    schema: {
      tags: ['admin'],
      summary: 'Correct an extracted promotion',
      params: IdParams,
      body: UpdateCandidateBody,
      response: { 200: CandidateSchema },
    },
    handler: async (request) =>
      presentCandidate(await stores.updateCandidate(request.params.id, request.body)),
  });

  r.delete('/api/admin/candidates/:id', {
    config: admin,
    schema: {
      tags: ['admin'],
      summary: 'Reject an extracted promotion (a live one is withdrawn)',
      params: IdParams,
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      await stores.rejectCandidate(request.params.id);
      return reply.code(204).send(null);
    },
  });

  r.post('/api/admin/stores/:id/promotions/promote', {
    config: admin,
    schema: {
      tags: ['admin'],
      summary: 'Make candidates live: {candidate_ids} or {job_id}',
      params: IdParams,
      body: PromoteBody,
      response: { 200: PromoteResponse },
    },
    handler: async (request) => ({ promoted: await stores.promote(request.params.id, request.body) }),
  });

  r.get('/api/shopping-list/prices', {
    config: { auth: 'bearer', tier: 'pro' },
    schema: {
      tags: ['shopping'],
      summary: 'Live promotion prices for each unchecked shopping-list item, per store',
      response: { 200: PricesSchema },
    },
    handler: async (request) => presentPrices(await pricing.prices(callerOf(request).id)),
  });

  r.get('/api/shopping-list/optimize', {
    config: { auth: 'bearer', tier: 'pro' },
    schema: {
      tags: ['shopping'],
      summary: 'Best single store and the cheapest multi-store split of the shopping list',
      response: { 200: OptimizeSchema },
    },
    handler: async (request) => presentOptimisation(await pricing.optimize(callerOf(request).id)),
  });
}

/**
 * The bytes of the multipart field `file`. Size and content-type errors keep their own answers
 * (413, 415); a body that is not well-formed multipart is a 400, not a server error.
 */
async function readUploadedFile(request: FastifyRequest): Promise<Buffer> {
  try {
    const part = await request.file();
    if (!part || part.fieldname !== 'file') {
      throw invalidField('file', 'a multipart field `file` with the PDF is required');
    }
    return await part.toBuffer();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (error instanceof AppError || (typeof code === 'string' && code.startsWith('FST_'))) throw error;
    throw invalidField('file', `the multipart body is malformed (${(error as Error).message})`);
  }
}
