import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DatabaseHandle } from '../db/database.ts';
import { pendingMigrations } from '../db/migrate.ts';
import { notFound, serviceUnavailable, unauthorized } from '../errors.ts';
import type { Metrics } from '../observability/metrics.ts';

/** Every answered request counted by its route pattern (never the raw URL: ids would explode the labels). */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
}

/**
 * `GET /api/metrics` (Prometheus text, bearer METRICS_TOKEN; 404 when the setting is unset) and
 * `GET /api/health/ready` (503 while the database is away or this code's migrations have not all run).
 */
export async function observabilityRoutes(
  app: FastifyInstance,
  options: { metrics: Metrics; token: string | undefined; database: DatabaseHandle },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { metrics, token, database } = options;

  r.get('/api/metrics', {
    config: { auth: 'none' },
    schema: {
      tags: ['platform'],
      summary: 'Prometheus metrics (bearer METRICS_TOKEN; 404 when METRICS_TOKEN is unset)',
      produces: ['text/plain'],
    },
    handler: async (request, reply) => {
      if (!token) throw notFound('Route');
      if (!bearerMatches(request.headers.authorization, token))
        throw unauthorized('The metrics token is required.');
      return reply
        .type(metrics.contentType)
        .header('cache-control', 'no-store')
        .send(await metrics.text());
    },
  });

  let migrated = false;
  r.get('/api/health/ready', {
    config: { auth: 'none' },
    schema: {
      tags: ['platform'],
      summary: 'Readiness: the database answers and every migration of this code has run',
      response: { 200: z.object({ status: z.literal('ready') }) },
    },
    handler: async () => {
      if (!(await database.ping())) throw serviceUnavailable('The database does not answer.');
      // Once complete, the schema stays migrated for this code: no need to look again.
      if (!migrated) {
        const pending = await pendingMigrations(database.db, database.schema).catch(() => ['unknown']);
        if (pending.length > 0)
          throw serviceUnavailable(`Database migrations are still running (${pending.length} pending).`);
        migrated = true;
      }
      return { status: 'ready' as const };
    },
  });
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
