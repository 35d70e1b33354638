import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '../../platform/http/auth.ts';
import { IdParams } from '../../platform/http/ids.ts';
import type { Viewer } from './contract.ts';
import {
  presentCook,
  presentDetail,
  presentFavourite,
  presentHistoryItem,
  presentRating,
  presentSummary,
} from './presenter.ts';
import {
  CookBody,
  CookSchema,
  FavouriteSchema,
  FavouritesListSchema,
  HistorySchema,
  PageQuery,
  RateBody,
  RatingSchema,
  RecipeBody,
  RecipeDetailSchema,
  RecipeListSchema,
  RecipeSearchQuery,
} from './schemas.ts';
import type { RecipesService } from './service.ts';

const viewerOf = (request: FastifyRequest): Viewer | undefined =>
  request.principal ? { id: request.principal.id, isAdmin: request.principal.isAdmin } : undefined;

const actorOf = (request: FastifyRequest): Viewer => {
  const caller = callerOf(request);
  return { id: caller.id, isAdmin: caller.isAdmin };
};

export async function recipesRoutes(app: FastifyInstance, options: { recipes: RecipesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { recipes } = options;
  app.addHook('onClose', async () => recipes.close());

  r.get('/api/recipes', {
    config: { auth: 'optional' },
    schema: {
      tags: ['recipes'],
      summary: 'Search recipes (full text ranked; the last word matches as a prefix)',
      description:
        'Catalog and public recipes for everyone, private ones for their owner (and admins). Without `q` ' +
        'the order is by title. `max_time` bounds prep + cook time; `dietary` keeps recipes fitting that restriction.',
      querystring: RecipeSearchQuery,
      response: { 200: RecipeListSchema },
    },
    handler: async (request) => {
      const q = request.query;
      const { items, total } = await recipes.search(
        {
          q: q.q,
          cuisine: q.category,
          difficulty: q.difficulty,
          maxTime: q.max_time,
          dietary: q.dietary,
          mealType: q.meal_type,
          limit: q.limit,
          offset: q.offset,
        },
        viewerOf(request),
      );
      return { items: items.map(presentSummary), total, limit: q.limit, offset: q.offset };
    },
  });

  r.get('/api/recipes/:id', {
    config: { auth: 'optional' },
    schema: {
      tags: ['recipes'],
      summary: 'One recipe with ingredients, steps and nutrition per serving',
      params: IdParams,
      response: { 200: RecipeDetailSchema },
    },
    handler: async (request) => presentDetail(await recipes.getDetail(request.params.id, viewerOf(request))),
  });

  r.post('/api/recipes', {
    config: { auth: 'bearer', tier: 'pro', idempotent: true },
    schema: {
      tags: ['recipes'],
      summary: 'Create a recipe (private unless is_public)',
      body: RecipeBody,
      response: { 201: RecipeDetailSchema },
    },
    handler: async (request, reply) =>
      reply.code(201).send(presentDetail(await recipes.create(actorOf(request), request.body))),
  });

  r.put('/api/recipes/:id', {
    config: { auth: 'bearer', tier: 'pro' },
    schema: {
      tags: ['recipes'],
      summary: 'Replace a recipe (owner or admin; catalog recipes: admins only)',
      params: IdParams,
      body: RecipeBody,
      response: { 200: RecipeDetailSchema },
    },
    handler: async (request) =>
      presentDetail(await recipes.update(request.params.id, actorOf(request), request.body)),
  });

  r.delete('/api/recipes/:id', {
    config: { auth: 'bearer', tier: 'pro' },
    schema: {
      tags: ['recipes'],
      summary: 'Delete a recipe (owner or admin); cooking history and meal-plan slots keep its title',
      params: IdParams,
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      await recipes.remove(request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  });

  for (const on of [true, false]) {
    const method = on ? r.post.bind(r) : r.delete.bind(r);
    method('/api/recipes/:id/favourite', {
      config: { auth: 'bearer' },
      schema: {
        tags: ['recipes'],
        summary: on ? 'Mark as favourite (idempotent)' : 'Remove from favourites (idempotent)',
        params: IdParams,
        response: { 200: FavouriteSchema },
      },
      handler: async (request) => ({
        is_favourite: await recipes.setFavourite(request.params.id, actorOf(request), on),
      }),
    });
  }

  r.post('/api/recipes/:id/rate', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['recipes'],
      summary: 'Rate 1..5 (rating again replaces your rating); answers the new aggregate',
      params: IdParams,
      body: RateBody,
      response: { 200: RatingSchema },
    },
    handler: async (request) =>
      presentRating(
        await recipes.rate(request.params.id, actorOf(request), request.body.rating, request.body.notes),
      ),
  });

  r.post('/api/recipes/:id/cook', {
    config: { auth: 'bearer', idempotent: true },
    schema: {
      tags: ['recipes'],
      summary: 'Record cooking: deducts the pantry (scaled to servings), adds history, learns preferences',
      params: IdParams,
      body: CookBody,
      response: { 200: CookSchema },
    },
    handler: async (request) =>
      presentCook(await recipes.cook(request.params.id, actorOf(request), request.body?.servings)),
  });

  r.get('/api/me/favourites', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['profile'],
      summary: 'The caller’s favourite recipes, most recently added first',
      querystring: PageQuery,
      response: { 200: FavouritesListSchema },
    },
    handler: async (request) => {
      const { limit, offset } = request.query;
      const { items, total } = await recipes.listFavourites(actorOf(request), { limit, offset });
      return { items: items.map(presentFavourite), total, limit, offset };
    },
  });

  r.get('/api/me/history', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['profile'],
      summary: 'What the caller cooked, newest first',
      querystring: PageQuery,
      response: { 200: HistorySchema },
    },
    handler: async (request) => {
      const { items, total } = await recipes.listHistory(callerOf(request).id, request.query);
      return { items: items.map(presentHistoryItem), total };
    },
  });
}
