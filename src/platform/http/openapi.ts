import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

const PROBLEM_JSON_SCHEMA = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string', description: 'stable snake_case error code (see docs/api.md, Errors)' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: PROBLEM_JSON_SCHEMA } },
});

/** Every operation can fail with a problem document; say so once for all of them. */
function withProblemResponses<T extends { schema: unknown }>(out: T): T {
  const schema = out.schema as { hide?: boolean; response?: Record<string, unknown> } | undefined;
  if (schema && !schema.hide) {
    schema.response = {
      ...schema.response,
      '4XX': problemResponse('Client error (RFC 9457 problem document)'),
      '5XX': problemResponse('Server or upstream error (RFC 9457 problem document)'),
    };
  }
  return out;
}

const MULTIPART_FILE_BODY = {
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary', description: 'the uploaded file' } },
};

/**
 * Multipart routes parse their body in the handler (streamed, size-limited), so they declare no
 * body schema to validate; the document still has to show the form they take.
 */
function withMultipartBody<T extends { schema: unknown }>(out: T): T {
  const schema = out.schema as { consumes?: string[]; body?: unknown } | undefined;
  if (schema?.consumes?.includes('multipart/form-data') && !schema.body) schema.body = MULTIPART_FILE_BODY;
  return out;
}

/** The OpenAPI document is generated from the same zod schemas that validate each route. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Mise cooking service',
        version: '1.0.0',
        description:
          'Recipes, pantry, meal plans, shopping lists priced against store promotions, an AI cooking ' +
          'assistant and paid tiers. Errors are RFC 9457 problem documents (application/problem+json) ' +
          'with a stable `code`; see docs/api.md for the list.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: (input) => withMultipartBody(withProblemResponses(jsonSchemaTransform(input))),
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  app.get('/api/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
