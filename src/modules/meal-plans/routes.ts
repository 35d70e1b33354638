import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, type Principal } from '../../platform/http/auth.ts';
import { IdParams } from '../../platform/http/ids.ts';
import type { Viewer } from '../recipes/contract.ts';
import {
  presentNutrition,
  presentPlanDetail,
  presentPlanSummary,
  presentSlot,
  presentUpdatedSlot,
} from './presenter.ts';
import {
  CreateMealPlanBody,
  CreateSlotBody,
  MealPlanDetailSchema,
  MealPlanListQuery,
  MealPlanSummarySchema,
  NutritionSchema,
  SlotParams,
  SlotSchema,
  UpdatedSlotSchema,
  UpdateSlotBody,
} from './schemas.ts';
import type { MealPlansService } from './service.ts';

const viewer = (caller: Principal): Viewer => ({ id: caller.id, isAdmin: caller.isAdmin });

export async function mealPlanRoutes(
  app: FastifyInstance,
  options: { mealPlans: MealPlansService },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { mealPlans } = options;
  const tags = ['meal-plans'];

  r.get('/api/meal-plans', {
    config: { auth: 'bearer' },
    schema: {
      tags,
      summary: 'The caller’s meal plans, newest week first',
      querystring: MealPlanListQuery,
      response: { 200: z.array(MealPlanSummarySchema) },
    },
    handler: async (request) =>
      (await mealPlans.list(callerOf(request).id, request.query)).map(presentPlanSummary),
  });

  r.post('/api/meal-plans', {
    config: { auth: 'bearer' },
    schema: {
      tags,
      summary: 'Create an empty plan for a week',
      description:
        'week_start must be a Monday (400 otherwise). A week that already has a plan: 409 conflict.',
      body: CreateMealPlanBody,
      response: { 201: MealPlanDetailSchema },
    },
    handler: async (request, reply) => {
      const plan = await mealPlans.createPlan(callerOf(request).id, request.body.week_start);
      return reply.code(201).send(presentPlanDetail(plan));
    },
  });

  r.get('/api/meal-plans/:id', {
    config: { auth: 'bearer' },
    schema: {
      tags,
      summary: 'A plan with its slots',
      params: IdParams,
      response: { 200: MealPlanDetailSchema },
    },
    handler: async (request) =>
      presentPlanDetail(await mealPlans.getPlanDetail(callerOf(request).id, request.params.id)),
  });

  r.delete('/api/meal-plans/:id', {
    config: { auth: 'bearer' },
    schema: { tags, summary: 'Delete a plan and its slots', params: IdParams, response: { 204: z.null() } },
    handler: async (request, reply) => {
      await mealPlans.deletePlan(callerOf(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  });

  r.post('/api/meal-plans/:id/slots', {
    config: { auth: 'bearer', idempotent: true },
    schema: {
      tags,
      summary: 'Add a slot',
      description:
        'servings defaults to the household size. recipe_id must be a recipe visible to the caller ' +
        '(400 validation_error on recipe_id otherwise; null makes a slot without a recipe). flex_type ' +
        'needs is_flex true. A day may hold several slots of one meal type.',
      params: IdParams,
      body: CreateSlotBody,
      response: { 201: SlotSchema },
    },
    handler: async (request, reply) => {
      const b = request.body;
      const slot = await mealPlans.addSlot(viewer(callerOf(request)), request.params.id, {
        day: b.day,
        mealType: b.meal_type,
        recipeId: b.recipe_id,
        servings: b.servings,
        isFlex: b.is_flex,
        flexType: b.flex_type,
      });
      return reply.code(201).send(presentSlot(slot));
    },
  });

  r.put('/api/meal-plans/:id/slots/:slotId', {
    config: { auth: 'bearer', idempotent: true },
    schema: {
      tags,
      summary: 'Change a slot (all fields optional)',
      description:
        'flex_type may only be set when is_flex is or becomes true (400 otherwise); is_flex false ' +
        'clears flex_type. A new recipe_id renews recipe_title (400 on recipe_id when not visible). ' +
        'Completing a slot (is_completed true) counts as cooking its recipe at the slot’s servings, once per ' +
        'slot: the pantry is deducted (soonest expiry first), the cooking history and taste weights learn; ' +
        '`cooking` tells what was taken and what was missing. Un-completing and completing again cooks nothing.',
      params: SlotParams,
      body: UpdateSlotBody,
      response: { 200: UpdatedSlotSchema },
    },
    handler: async (request) => {
      const b = request.body;
      const slot = await mealPlans.updateSlot(
        viewer(callerOf(request)),
        request.params.id,
        request.params.slotId,
        {
          recipeId: b.recipe_id,
          servings: b.servings,
          isFlex: b.is_flex,
          flexType: b.flex_type,
          isCompleted: b.is_completed,
        },
      );
      return presentUpdatedSlot(slot);
    },
  });

  r.delete('/api/meal-plans/:id/slots/:slotId', {
    config: { auth: 'bearer' },
    schema: { tags, summary: 'Remove a slot', params: SlotParams, response: { 204: z.null() } },
    handler: async (request, reply) => {
      await mealPlans.deleteSlot(callerOf(request).id, request.params.id, request.params.slotId);
      return reply.code(204).send(null);
    },
  });

  r.get('/api/meal-plans/:id/nutrition', {
    config: { auth: 'bearer' },
    schema: {
      tags,
      summary: 'Nutrition per day and week averages',
      description:
        'One serving of each slot’s recipe per person (the recipe’s per-serving nutrition). All 7 days ' +
        'are listed; averages are over days with at least one meal. Values are rounded to one decimal.',
      params: IdParams,
      response: { 200: NutritionSchema },
    },
    handler: async (request) =>
      presentNutrition(await mealPlans.nutrition(viewer(callerOf(request)), request.params.id)),
  });
}
