import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from './platform/config.ts';
import { serviceUnavailable } from './platform/errors.ts';
import type { DatabaseHandle } from './platform/db/database.ts';
import { registerAuth } from './platform/http/auth.ts';
import { frameworkErrorHandler, registerErrorHandling } from './platform/http/error-handler.ts';
import { registerOpenApi } from './platform/http/openapi.ts';
import { registerRateLimit } from './platform/http/rate-limit.ts';
import { registerSecurityHeaders } from './platform/http/security-headers.ts';
import { loggerOptions } from './platform/logger.ts';
import { TokenService } from './platform/security/tokens.ts';
import { createServices, registerModuleRoutes, type PlatformDeps, type Services } from './modules/index.ts';

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
  const deps: PlatformDeps = {
    config,
    database,
    db: database.db,
    tokens: new TokenService(options.jwtSecret),
    now: options.now ?? (() => new Date()),
  };
  const services = createServices(deps);

  const app = Fastify({
    logger: options.logger === false ? false : loggerOptions(config.logLevel),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    },
    trustProxy: true,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrorHandler,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRoute', (route) => {
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
  registerSecurityHeaders(app);
  await app.register(cookie);
  await registerRateLimit(app, {
    max: config.rateLimit.max,
    window: config.rateLimit.window,
    redisUrl: config.redisUrl,
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

  await registerModuleRoutes(app, services, config);
  return { app, services, deps };
}
