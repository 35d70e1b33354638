import { randomUUID } from 'node:crypto';
import path from 'node:path';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from './platform/config.ts';
import { serviceUnavailable } from './platform/errors.ts';
import type { DatabaseHandle } from './platform/db/database.ts';
import { transactional } from './platform/db/unit-of-work.ts';
import { registerAuth } from './platform/http/auth.ts';
import {
  clientErrorHandler,
  frameworkErrorHandler,
  registerErrorHandling,
} from './platform/http/error-handler.ts';
import { registerIdempotency } from './platform/idempotency/hook.ts';
import { observabilityRoutes, registerRequestMetrics } from './platform/http/observability.ts';
import { registerOpenApi } from './platform/http/openapi.ts';
import { Metrics } from './platform/observability/metrics.ts';
import { registerRateLimit } from './platform/http/rate-limit.ts';
import { registerSecurityHeaders } from './platform/http/security-headers.ts';
import { loggerOptions } from './platform/logger.ts';
import { connectRedis } from './platform/redis.ts';
import { fastifyTrustProxy } from './platform/http/client-address.ts';
import { TokenService } from './platform/security/tokens.ts';
import {
  createServices,
  registerMetricGauges,
  registerModuleRoutes,
  type PlatformDeps,
  type Services,
} from './modules/index.ts';

export interface BuiltApp {
  app: FastifyInstance;
  services: Services;
  deps: PlatformDeps;
}

export interface BuildOptions {
  config: Config;
  database: DatabaseHandle;
  /** Resolved signing key (config.jwtSecret or the one kept in DATA_DIR). */
  jwtSecret: string;
  now?: () => Date;
  /** Replace the logger (tests pass false). */
  logger?: boolean;
}

export async function buildApp(options: BuildOptions): Promise<BuiltApp> {
  const { config, database } = options;
  const redisLog: { warn?: (error: Error) => void } = {};
  const redis = config.redisUrl
    ? connectRedis(config.redisUrl, (error) => redisLog.warn?.(error))
    : undefined;
  const deps: PlatformDeps = {
    config,
    database,
    ...transactional(database.db),
    tokens: new TokenService(options.jwtSecret),
    now: options.now ?? (() => new Date()),
    redis,
    metrics: new Metrics(),
  };
  const services = createServices(deps);
  registerMetricGauges(services, database);

  const app = Fastify({
    logger: options.logger === false ? false : loggerOptions(config.logLevel),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    },
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // A client has REQUEST_TIMEOUT_MS to send its whole request (headers included), so one that
    // trickles bytes (slowloris) is answered 408 and cut off; checked at a tenth of that period.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(config.requestTimeoutMs / 10))),
    },
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });
  redisLog.warn = (error) => app.log.warn({ err: error.message }, 'redis unavailable; local counters');
  app.addHook('onClose', async () => redis?.disconnect());
  await bootstrapAdmins(app, services, config);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRoute', (route) => {
    requireAuthDeclaration(route);
    const auth = route.config?.auth;
    if ((auth === 'bearer' || auth === 'admin' || auth === 'optional') && route.schema) {
      route.schema.security = [{ bearerAuth: [] }];
    }
  });

  // JSON only: a text body on a JSON route is a 415, not a string the schema rejects.
  app.removeContentTypeParser('text/plain');
  // Clients that always send Content-Type: application/json may send no body to routes that take
  // none (favourite, cook): an empty body is "no body", not malformed JSON.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    return parseJson(request, body as string, done);
  });
  registerErrorHandling(app);
  registerRequestMetrics(app, services.metrics);
  registerSecurityHeaders(app);
  // Browser clients on other origins: only those CORS_ORIGINS names, with credentials (the refresh
  // cookie); none without the setting.
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      credentials: true,
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Chat-Shape', 'X-Request-Id'],
      maxAge: 600,
    });
  }
  await app.register(cookie);
  const limitKeys = await registerRateLimit(app, {
    max: config.rateLimit.max,
    window: config.rateLimit.window,
    addressMax: config.rateLimit.addressMax,
    redis: deps.redis,
    tokens: deps.tokens,
  });
  await registerOpenApi(app);
  registerAuth(app, deps.tokens, services.accounts.loadPrincipal);

  app.withTypeProvider<ZodTypeProvider>().get('/api/health', {
    config: { auth: 'none' },
    schema: {
      tags: ['platform'],
      summary: 'Liveness and database reachability',
      response: { 200: z.object({ status: z.literal('ok') }) },
    },
    handler: async () => {
      if (await database.ping()) return { status: 'ok' as const };
      throw serviceUnavailable('The database does not answer.');
    },
  });

  await app.register(observabilityRoutes, {
    metrics: services.metrics,
    token: config.metricsToken,
    database,
  });

  // The operators' console: static files, public like any web page; its data comes from admin routes.
  await app.register(fastifyStatic, {
    root: CONSOLE_DIR,
    prefix: CONSOLE_PREFIX,
    index: false,
    cacheControl: true,
    maxAge: '10m',
  });
  // `/admin` and `/admin/` (one route: trailing slashes are ignored) open the console.
  app.get(CONSOLE_PREFIX, { config: { auth: 'none' }, schema: { hide: true } }, (_request, reply) =>
    reply.sendFile('index.html'),
  );

  registerIdempotency(app, deps.uow, deps.now);
  await registerModuleRoutes(app, services, config, limitKeys);
  return { app, services, deps };
}

/** Creates missing ADMIN_EMAILS accounts; says which listed addresses hold no rights. */
async function bootstrapAdmins(app: FastifyInstance, services: Services, config: Config): Promise<void> {
  for (const { email, outcome } of await services.accounts.bootstrapAdmins(config.adminPassword)) {
    if (outcome === 'created') app.log.info({ email }, 'admin account created from ADMIN_EMAILS');
    if (outcome === 'registered_by_someone_else')
      app.log.warn(
        { email },
        'ADMIN_EMAILS lists an address that was registered before the service created it: it has NO admin rights. ' +
          'If that account is yours, grant them with `npm run admin -- grant <email>`.',
      );
  }
}

const CONSOLE_PREFIX = '/admin/';
const CONSOLE_DIR = path.join(import.meta.dirname, 'console');

/** Routes that plugins register for the API docs: public by nature. */
const DOCS_PREFIX = '/api/docs';

/**
 * Deny by default: a route that does not say who may call it (`config.auth`) stops the service at
 * start, so forgetting the declaration can never publish a route.
 */
function requireAuthDeclaration(route: RouteOptions): void {
  if (route.config?.auth !== undefined) return;
  if (route.url === DOCS_PREFIX || route.url.startsWith(`${DOCS_PREFIX}/`)) {
    route.config = { ...route.config, auth: 'none' };
    return;
  }
  if (route.url === '/admin' || route.url.startsWith(CONSOLE_PREFIX)) {
    route.config = { ...route.config, auth: 'none' };
    return;
  }
  // The CORS preflight answer (@fastify/cors): it carries no credentials and does nothing.
  if (route.method === 'OPTIONS' && route.url === '*') {
    route.config = { ...route.config, auth: 'none' };
    return;
  }
  throw new Error(
    `Route ${String(route.method)} ${route.url} declares no auth: set config.auth to 'none', 'optional', 'bearer' or 'admin'.`,
  );
}
