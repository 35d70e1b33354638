import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '../../platform/http/auth.ts';
import type { PreferencesService } from './service.ts';

const PreferencesSchema = z
  .object({
    cuisine_weights: z.record(z.string(), z.number()),
    difficulty_weights: z.record(z.string(), z.number()),
    ingredient_weights: z.record(z.string(), z.number()),
  })
  .meta({ id: 'Preferences' });

export async function preferencesRoutes(app: FastifyInstance, options: { preferences: PreferencesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/me/preferences', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['profile'],
      summary: 'Learned taste weights (neutral 0.5)',
      response: { 200: PreferencesSchema },
    },
    handler: async (request) => options.preferences.get(callerOf(request).id),
  });
  r.delete('/api/me/preferences', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['profile'],
      summary: 'Reset every weight to neutral 0.5',
      response: { 200: z.object({ message: z.string() }) },
    },
    handler: async (request) => {
      await options.preferences.reset(callerOf(request).id);
      return { message: 'Preferences reset to neutral (0.5).' };
    },
  });
}
