import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '../../platform/http/auth.ts';
import { presentDetail } from '../recipes/presenter.ts';
import { RecipeDetailSchema } from '../recipes/schemas.ts';
import type { RecipeImportService } from './service.ts';

/** A saved page is at most this large; the URL form fetches under RECIPE_IMPORT_MAX_BYTES. */
const HTML_MAX_CHARS = 3_000_000;

const ImportBody = z
  .object({
    url: z
      .string()
      .trim()
      .max(2048)
      .regex(/^https?:\/\//i, 'must be an http(s) URL')
      .optional(),
    html: z.string().min(1).max(HTML_MAX_CHARS).optional(),
  })
  .refine((b) => (b.url === undefined) !== (b.html === undefined), {
    message: 'send either url or html',
    path: ['url'],
  });

const ImportedSchema = RecipeDetailSchema.extend({
  unmatched: z
    .array(z.string())
    .describe('Ingredient lines that name no known ingredient: left out, for the user to correct'),
  source: z.object({
    url: z.string().nullable(),
    image_url: z.string().nullable().describe('The picture the page names (not fetched, not attached)'),
    language: z.string().describe('Recognised from the recipe’s text (ISO 639-1 where there is one)'),
    form: z.enum(['json-ld', 'microdata', 'microformat']),
  }),
});

export async function recipeImportRoutes(
  app: FastifyInstance,
  options: { recipeImport: RecipeImportService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post('/api/recipes/import', {
    config: { auth: 'bearer', tier: 'pro', idempotent: true },
    bodyLimit: HTML_MAX_CHARS * 4 + 64 * 1024,
    schema: {
      tags: ['recipes'],
      summary: 'Import a recipe from a web page (by URL, or its HTML) as a private recipe',
      description:
        'Reads schema.org Recipe data (JSON-LD, microdata, hRecipe). Lines that name no known ingredient are ' +
        'answered in `unmatched`. The server fetches only http(s) URLs on public addresses (checked after DNS ' +
        'and on every redirect), with size and time limits. 422 `no_structured_recipe` when the page carries no ' +
        'recipe; 422 `url_not_allowed`, `page_unreachable` or `unsupported_page` when the URL cannot be read.',
      body: ImportBody,
      response: { 201: ImportedSchema },
    },
    handler: async (request, reply) => {
      const caller = callerOf(request);
      const imported = await options.recipeImport.importForUser(
        { id: caller.id, isAdmin: caller.isAdmin },
        request.body,
      );
      return reply.code(201).send({
        ...presentDetail(imported.recipe),
        unmatched: imported.unmatched,
        source: {
          url: imported.source.url,
          image_url: imported.source.imageUrl,
          language: imported.source.language,
          form: imported.source.form as 'json-ld' | 'microdata' | 'microformat',
        },
      });
    },
  });
}
