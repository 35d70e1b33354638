import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '../../platform/http/auth.ts';
import type { DevicesService } from './service.ts';

const Platform = z.enum(['ios', 'android', 'web']);
const PushTokenSchema = z
  .object({ id: z.uuid(), token: z.string(), platform: Platform, created_at: z.string() })
  .meta({ id: 'PushToken' });
const CreatedPushToken = z.object({ id: z.uuid(), token: z.string(), platform: Platform });
const CreateBody = z.object({ token: z.string().trim().min(1).max(4096), platform: Platform });

export async function devicesRoutes(app: FastifyInstance, options: { devices: DevicesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { devices } = options;

  r.get('/api/me/push-tokens', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['profile'],
      summary: 'The caller’s device push tokens',
      response: { 200: z.array(PushTokenSchema) },
    },
    handler: async (request) =>
      (await devices.list(callerOf(request).id)).map((t) => ({
        id: t.id,
        token: t.token,
        platform: t.platform,
        created_at: t.createdAt.toISOString(),
      })),
  });

  r.post('/api/me/push-tokens', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['profile'],
      summary: 'Register a device push token',
      body: CreateBody,
      response: { 201: CreatedPushToken },
    },
    handler: async (request, reply) => {
      const t = await devices.register(callerOf(request).id, request.body.token, request.body.platform);
      return reply.code(201).send({ id: t.id, token: t.token, platform: t.platform });
    },
  });

  r.delete('/api/me/push-tokens/:id', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['profile'],
      summary: 'Remove a push token (404 when unknown or another user’s)',
      params: z.object({ id: z.string() }),
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      await devices.remove(callerOf(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  });
}
