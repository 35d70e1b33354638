import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '../../platform/http/auth.ts';
import { IdParams } from '../../platform/http/ids.ts';
import { presentInventoryItem } from './presenter.ts';
import {
  CreateInventoryBody,
  InventoryItemSchema,
  InventoryListSchema,
  InventoryQuery,
  SyncBody,
  SyncResultSchema,
  UpdateInventoryBody,
} from './schemas.ts';
import type { PantryService } from './service.ts';

export async function pantryRoutes(app: FastifyInstance, options: { pantry: PantryService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { pantry } = options;
  const tags = ['inventory'];

  r.get('/api/inventory', {
    config: { auth: 'bearer' },
    schema: {
      tags,
      summary: 'The caller’s pantry, soonest expiry first (undated last)',
      description:
        'expiring_soon=true lists items expiring today or within 3 days (UTC), expired ones included; ' +
        'expiring_count counts such items and total all items of the filtered listing. limit/offset ' +
        'page through it; without limit every item is listed.',
      querystring: InventoryQuery,
      response: { 200: InventoryListSchema },
    },
    handler: async (request) => {
      const { location, expiring_soon, limit, offset } = request.query;
      const { items, expiringCount, total } = await pantry.listItems(
        callerOf(request).id,
        { location, expiringSoon: expiring_soon },
        { limit, offset },
      );
      return { items: items.map(presentInventoryItem), expiring_count: expiringCount, total };
    },
  });

  r.post('/api/inventory', {
    config: { auth: 'bearer', idempotent: true },
    schema: {
      tags,
      summary: 'Add stock',
      description:
        'ingredient_id must be a reference ingredient and unit a unit it can be measured in ' +
        '(400 otherwise). location defaults to pantry, expiry_date to none.',
      body: CreateInventoryBody,
      response: { 201: InventoryItemSchema },
    },
    handler: async (request, reply) => {
      const b = request.body;
      const item = await pantry.add(callerOf(request).id, {
        ingredientId: b.ingredient_id,
        quantity: b.quantity,
        unit: b.unit,
        location: b.location,
        expiryDate: b.expiry_date,
      });
      return reply.code(201).send(presentInventoryItem(item));
    },
  });

  r.put('/api/inventory/:id', {
    config: { auth: 'bearer' },
    schema: {
      tags,
      summary: 'Change quantity, unit, location or expiry date (all optional; expiry_date null clears it)',
      params: IdParams,
      body: UpdateInventoryBody,
      response: { 200: InventoryItemSchema },
    },
    handler: async (request) => {
      const b = request.body;
      const item = await pantry.update(callerOf(request).id, request.params.id, {
        quantity: b.quantity,
        unit: b.unit,
        location: b.location,
        expiryDate: b.expiry_date,
      });
      return presentInventoryItem(item);
    },
  });

  r.delete('/api/inventory/:id', {
    config: { auth: 'bearer' },
    schema: { tags, summary: 'Remove stock', params: IdParams, response: { 204: z.null() } },
    handler: async (request, reply) => {
      await pantry.remove(callerOf(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  });

  r.post('/api/inventory/sync', {
    config: { auth: 'bearer', idempotent: true },
    schema: {
      tags,
      summary: 'Deduct a recipe’s ingredients, scaled to servings',
      description:
        'Takes each ingredient from the soonest-expiring stock first, converting units (weight, volume, ' +
        'pieces via reference densities and piece weights). Lines that cannot be converted are left ' +
        'untouched. Rows reaching zero are removed and their names listed in depleted_items. ' +
        'servings defaults to the recipe’s own. ' +
        'The recipe must be visible to the caller (404 otherwise).',
      body: SyncBody,
      response: { 200: SyncResultSchema },
    },
    handler: async (request) => {
      const caller = callerOf(request);
      const result = await pantry.deductRecipe(
        { id: caller.id, isAdmin: caller.isAdmin },
        request.body.recipe_id,
        request.body.servings,
      );
      return { updated_items: result.updatedItems, depleted_items: result.depletedItems };
    },
  });
}
