import { Redis } from 'ioredis';

/**
 * The Redis connection an instance shares its counters through (REDIS_URL). Commands fail fast
 * instead of queueing while Redis is away: every user of it falls back to local memory.
 */
export function connectRedis(url: string, onError: (error: Error) => void): Redis {
  const redis = new Redis(url, {
    connectTimeout: 1_000,
    commandTimeout: 500,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: false,
  });
  redis.on('error', onError);
  return redis;
}
