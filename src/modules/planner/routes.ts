import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { callerOf } from '../../platform/http/auth.ts';
import { presentPlanDetail } from '../meal-plans/presenter.ts';
import { MealPlanDetailSchema } from '../meal-plans/schemas.ts';
import { GeneratePlanBody } from './schemas.ts';
import type { PlannerService } from './service.ts';

export async function plannerRoutes(
  app: FastifyInstance,
  options: { planner: PlannerService },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // A static path: fastify matches it before the parametric /api/meal-plans/:id routes.
  r.post('/api/meal-plans/generate', {
    config: { auth: 'bearer', tier: 'pro', idempotent: 'reserve' },
    schema: {
      tags: ['meal-plans'],
      summary: 'Generate a week (breakfast, lunch, dinner × 7) that respects the user’s constraints',
      description:
        'Never breaks an allergy, dietary restriction, `max_prep_time` (prep + cook), `cuisines`, ' +
        '`avoid_repeated` or meal-type fit; optimises preference weights, health goals, variety and ' +
        'expiring pantry items (see planner/objective.ts). Servings = household size. A slot no recipe ' +
        'fits stays empty. 400 unless week_start is a Monday; 409 `conflict` when the week has a plan ' +
        'and `replace` is not true; 422 `no_matching_recipes` when nothing fits at all.',
      body: GeneratePlanBody,
      response: { 201: MealPlanDetailSchema },
    },
    handler: async (request, reply) => {
      const caller = callerOf(request);
      const { week_start, preferences, replace } = request.body;
      // Plans are built from what the user may eat as a user: an admin's plan gets no one else's private recipes.
      const plan = await options.planner.generate(
        { id: caller.id, isAdmin: false },
        {
          weekStart: week_start,
          maxPrepTime: preferences.max_prep_time ?? undefined,
          cuisines: preferences.cuisines ?? undefined,
          avoidRepeated: preferences.avoid_repeated,
          replace,
        },
      );
      return reply.code(201).send(presentPlanDetail(plan));
    },
  });
}
