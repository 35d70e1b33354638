import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '../../platform/http/auth.ts';
import { IdParams } from '../../platform/http/ids.ts';
import { presentShoppingItem } from './presenter.ts';
import {
  CreateShoppingItemBody,
  GenerateBody,
  GenerationSchema,
  ShoppingListItemSchema,
  ShoppingListSchema,
  UpdateShoppingItemBody,
} from './schemas.ts';
import type { ShoppingService } from './service.ts';

export async function shoppingRoutes(
  app: FastifyInstance,
  options: { shopping: ShoppingService },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { shopping } = options;
  const tags = ['shopping-list'];

  r.get('/api/shopping-list', {
    config: { auth: 'bearer' },
    schema: {
      tags,
      summary: 'The caller’s shopping list',
      description: 'Unchecked items first, grouped by category, then by name.',
      response: { 200: ShoppingListSchema },
    },
    handler: async (request) => {
      const list = await shopping.list(callerOf(request).id);
      return {
        items: list.items.map(presentShoppingItem),
        total_items: list.totalItems,
        checked_items: list.checkedItems,
      };
    },
  });

  r.post('/api/shopping-list', {
    config: { auth: 'bearer', idempotent: true },
    schema: {
      tags,
      summary: 'Add an item (merged into an unchecked item of the same ingredient)',
      description:
        'When the ingredient is already on the list unchecked, the quantity is converted into that ' +
        'item’s unit and added to it, and the merged item is answered (201). When the units cannot be ' +
        'converted the item gets its own row. Unknown ingredient_id or a unit the ingredient cannot be ' +
        'measured in: 400.',
      body: CreateShoppingItemBody,
      response: { 201: ShoppingListItemSchema },
    },
    handler: async (request, reply) => {
      const b = request.body;
      const item = await shopping.add(callerOf(request).id, {
        ingredientId: b.ingredient_id,
        quantity: b.quantity,
        unit: b.unit,
      });
      return reply.code(201).send(presentShoppingItem(item));
    },
  });

  r.post('/api/shopping-list/generate', {
    config: { auth: 'bearer', idempotent: true },
    schema: {
      tags,
      summary: 'Add what a meal plan needs, minus the pantry',
      description:
        'Every slot’s recipe scaled to the slot’s servings, summed per ingredient (in its default unit ' +
        'where convertible), minus pantry stock. Ingredients the pantry fully covers count in ' +
        'skipped_in_pantry; the rest is merged into unchecked items. Generating again from the same ' +
        'plan replaces that plan’s previous contribution instead of adding it twice; checked items are ' +
        'left alone. items lists the items created or increased. Unknown or another user’s plan: 404.',
      body: GenerateBody,
      response: { 200: GenerationSchema },
    },
    handler: async (request) => {
      const caller = callerOf(request);
      const result = await shopping.generateFromPlan(
        { id: caller.id, isAdmin: caller.isAdmin },
        request.body.meal_plan_id,
      );
      return {
        added_items: result.addedItems,
        skipped_in_pantry: result.skippedInPantry,
        items: result.items.map(presentShoppingItem),
      };
    },
  });

  r.put('/api/shopping-list/:id', {
    config: { auth: 'bearer' },
    schema: {
      tags,
      summary: 'Change quantity, unit or checked state (all optional)',
      params: IdParams,
      body: UpdateShoppingItemBody,
      response: { 200: ShoppingListItemSchema },
    },
    handler: async (request) => {
      const b = request.body;
      const item = await shopping.update(callerOf(request).id, request.params.id, {
        quantity: b.quantity,
        unit: b.unit,
        isChecked: b.is_checked,
      });
      return presentShoppingItem(item);
    },
  });

  r.delete('/api/shopping-list/:id', {
    config: { auth: 'bearer' },
    schema: { tags, summary: 'Remove an item', params: IdParams, response: { 204: z.null() } },
    handler: async (request, reply) => {
      await shopping.remove(callerOf(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  });
}
