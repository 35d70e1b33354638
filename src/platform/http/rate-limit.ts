import { createRequire } from 'node:module';
import rateLimit, { type RateLimitPluginOptions, type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { rateLimited } from '../errors.ts';
import type { TokenService } from '../security/tokens.ts';
import { addressKey } from './client-address.ts';

const require = createRequire(import.meta.url);
type StoreCtor = new (...args: unknown[]) => FastifyRateLimitStore;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreCtor;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreCtor;

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];

/**
 * Counters live in Redis when REDIS_URL is set, so every instance shares them. When Redis cannot be
 * reached, each instance falls back to its own in-memory counters (documented degradation: limits
 * become per-instance, never a 500 and never unlimited).
 */
class RedisWithLocalFallbackStore implements FastifyRateLimitStore {
  readonly #redis: FastifyRateLimitStore;
  readonly #local: FastifyRateLimitStore;
  constructor(redis: FastifyRateLimitStore, local: FastifyRateLimitStore) {
    this.#redis = redis;
    this.#local = local;
  }
  incr(key: string, callback: IncrCallback, timeWindow: number, max: number): void {
    this.#redis.incr(
      key,
      (error, result) => (error ? this.#local.incr(key, callback, timeWindow, max) : callback(null, result)),
      timeWindow,
      max,
    );
  }
  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    return new RedisWithLocalFallbackStore(this.#redis.child(routeOptions), this.#local.child(routeOptions));
  }
}

export interface RateLimitSettings {
  /** Per caller (a signed-in user, else an address) and window. */
  max: number;
  window: string;
  /** Coarse backstop per client address (IPv6: per /64), whoever is signed in. */
  addressMax: number;
  redis: Redis | undefined;
  tokens: TokenService;
}

/** What a rate limit counts by; routes choose with `config.rateLimit.keyGenerator`. */
export interface LimitKeys {
  /** The client address (IPv6 grouped by /64). */
  address(request: FastifyRequest): string;
  /** The signed-in user when the bearer token is valid, else the address. */
  caller(request: FastifyRequest): Promise<string>;
  /** The login family of a valid refresh cookie, else the address. */
  refreshFamily(request: FastifyRequest): Promise<string>;
}

export function limitKeys(tokens: TokenService): LimitKeys {
  const address = (request: FastifyRequest) => `addr:${addressKey(request.ip)}`;
  return {
    address,
    async caller(request) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
      const claims = match?.[1] ? await tokens.verifyAccess(match[1]) : undefined;
      return claims ? `user:${claims.sub}` : address(request);
    },
    async refreshFamily(request) {
      const raw = request.cookies?.refresh_token;
      const claims = raw ? await tokens.verifyRefresh(raw) : undefined;
      return claims ? `family:${claims.fid}` : address(request);
    },
  };
}

/**
 * Every route is limited per caller (the user behind a valid token, else the client address),
 * routes may choose another key and maximum (login and registration by address, refresh by login
 * family), and every request also counts against a coarse per-address backstop. The address is the
 * socket's peer unless TRUST_PROXY names the proxies in front (see client-address.ts).
 */
export async function registerRateLimit(
  app: FastifyInstance,
  settings: RateLimitSettings,
): Promise<LimitKeys> {
  const keys = limitKeys(settings.tokens);
  const options: RateLimitPluginOptions = {
    global: true,
    max: settings.max,
    timeWindow: settings.window,
    keyGenerator: keys.caller,
    errorResponseBuilder: (_request, context) => rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  };
  if (settings.redis) {
    const redisStore = new RedisStore(false, false, settings.redis, 'mise-rl-');
    const localStore = new LocalStore(false, false, 5000);
    const shared = new RedisWithLocalFallbackStore(redisStore, localStore);
    options.store = function SharedStore() {
      return shared;
    } as unknown as RateLimitPluginOptions['store'];
  }
  await app.register(rateLimit, options);

  const backstop = app.createRateLimit({
    max: settings.addressMax,
    timeWindow: settings.window,
    keyGenerator: (request) => `net:${addressKey(request.ip)}`,
  });
  app.addHook('onRequest', async (request) => {
    const outcome = await backstop(request);
    if (!outcome.isAllowed && outcome.isExceeded) throw rateLimited(Math.max(1, outcome.ttlInSeconds));
  });
  return keys;
}
