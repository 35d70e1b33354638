import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IngredientListQuery, IngredientListResponse } from './schemas.ts';
import type { IngredientsService } from './service.ts';

export async function ingredientsRoutes(app: FastifyInstance, options: { ingredients: IngredientsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/ingredients', {
    config: { auth: 'none' },
    schema: {
      tags: ['ingredients'],
      summary: 'Reference ingredients to pick from; q matches names and aliases (typo-tolerant), best first',
      querystring: IngredientListQuery,
      response: { 200: IngredientListResponse },
    },
    handler: async (request) => {
      const { q, limit, offset } = request.query;
      const { items, total } = await options.ingredients.search(q, limit, offset);
      return { items, total, limit, offset };
    },
  });
}
