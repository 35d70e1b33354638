import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { callerOf } from '../../platform/http/auth.ts';
import { GenerateRecipeBody, RecipeDraftSchema } from './schemas.ts';
import type { AiRecipesService } from './service.ts';

export async function aiRecipesRoutes(
  app: FastifyInstance,
  options: { aiRecipes: AiRecipesService },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post('/api/recipes/generate', {
    config: { auth: 'bearer', tier: 'pro', idempotent: 'reserve' },
    schema: {
      tags: ['recipes'],
      summary: 'Generate an AI recipe draft (generate → score → refine, at most 3 passes)',
      description:
        'Scores are in [0, 1]: overall = 0.4·palatability + 0.3·nutrition_balance + 0.3·preference_match; ' +
        'macros come from the reference ingredients, palatability from a separate model judgement. A draft ' +
        'that breaks an allergy, a dietary restriction or max_minutes (prep + cook) is never returned: ' +
        '422 `no_matching_recipes` when none of the passes was clean. 503 `not_configured` without ' +
        'RECIPE_MODEL/CHAT_MODEL; 502/504 when the model fails before any clean draft exists.',
      body: GenerateRecipeBody,
      response: { 200: RecipeDraftSchema },
    },
    handler: async (request) => {
      const body = request.body;
      return options.aiRecipes.generate(callerOf(request).id, {
        prompt: body.prompt,
        usePantry: body.use_pantry,
        cuisineHint: body.cuisine_hint ?? null,
        maxMinutes: body.max_minutes ?? null,
      });
    },
  });
}
