import { createRequire } from 'node:module';
import rateLimit, { type RateLimitPluginOptions, type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { rateLimited } from '../errors.ts';

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
  max: number;
  window: string;
  redisUrl: string | undefined;
}

export async function registerRateLimit(app: FastifyInstance, settings: RateLimitSettings): Promise<void> {
  const options: RateLimitPluginOptions = {
    global: true,
    max: settings.max,
    timeWindow: settings.window,
    keyGenerator: (request) => request.ip,
    errorResponseBuilder: (_request, context) => rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  };
  if (settings.redisUrl) {
    const redis = new Redis(settings.redisUrl, {
      connectTimeout: 1_000,
      commandTimeout: 500,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: false,
    });
    redis.on('error', (error: Error) =>
      app.log.warn({ err: error.message }, 'redis unavailable; local rate limits'),
    );
    const redisStore = new RedisStore(false, false, redis, 'mise-rl-');
    const localStore = new LocalStore(false, false, 5000);
    const shared = new RedisWithLocalFallbackStore(redisStore, localStore);
    options.store = function SharedStore() {
      return shared;
    } as unknown as RateLimitPluginOptions['store'];
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
  }
  await app.register(rateLimit, options);
}
