import type { Redis } from 'ioredis';
import { sha256Hex } from './tokens.ts';

/** Failed logins of one account: how many, and when the last one was. */
export interface FailureRecord {
  failures: number;
  lastAt: number;
}

/** Where failure counts live: in Redis when instances share them, else in this process. */
export interface FailureStore {
  record(key: string, nowMs: number, keepMs: number): Promise<FailureRecord>;
  read(key: string, nowMs: number): Promise<FailureRecord | undefined>;
  clear(key: string): Promise<void>;
}

export interface LoginThrottleSettings {
  /** Failures allowed before any waiting. */
  freeFailures: number;
  /** Wait after the first failure past the free ones; doubles with each further failure. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A record is forgotten this long after its last failure. */
  keepMs: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleSettings = {
  freeFailures: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  keepMs: 60 * 60_000,
};

/**
 * Per-account login back-off, whatever address the attempts come from. It is keyed by the email
 * as typed (normalised), whether or not an account has it, so its answers cannot tell existing
 * accounts apart. After `freeFailures` failures each further one makes the next attempt wait
 * base·2^(n-1), up to maxDelayMs; a success clears the record.
 */
export class LoginThrottle {
  readonly #store: FailureStore;
  readonly #settings: LoginThrottleSettings;

  constructor(store: FailureStore, settings: LoginThrottleSettings = DEFAULT_LOGIN_THROTTLE) {
    this.#store = store;
    this.#settings = settings;
  }

  /** Seconds the caller must still wait before trying this email again; 0 when it may try now. */
  async waitSeconds(email: string, nowMs: number): Promise<number> {
    const record = await this.#store.read(keyOf(email), nowMs);
    if (!record) return 0;
    const until = record.lastAt + this.#delayAfter(record.failures);
    return until > nowMs ? Math.ceil((until - nowMs) / 1000) : 0;
  }

  async failed(email: string, nowMs: number): Promise<void> {
    await this.#store.record(keyOf(email), nowMs, this.#settings.keepMs);
  }

  async succeeded(email: string): Promise<void> {
    await this.#store.clear(keyOf(email));
  }

  #delayAfter(failures: number): number {
    const over = failures - this.#settings.freeFailures;
    if (over <= 0) return 0;
    return Math.min(this.#settings.baseDelayMs * 2 ** (over - 1), this.#settings.maxDelayMs);
  }
}

const keyOf = (email: string) => `login:${sha256Hex(email.trim().toLowerCase())}`;

export class MemoryFailureStore implements FailureStore {
  readonly #records = new Map<string, FailureRecord & { expiresAt: number }>();

  async record(key: string, nowMs: number, keepMs: number): Promise<FailureRecord> {
    this.#sweep(nowMs);
    const previous = this.#records.get(key);
    const next = { failures: (previous?.failures ?? 0) + 1, lastAt: nowMs, expiresAt: nowMs + keepMs };
    this.#records.set(key, next);
    return next;
  }

  async read(key: string, nowMs: number): Promise<FailureRecord | undefined> {
    const record = this.#records.get(key);
    if (!record || record.expiresAt <= nowMs) return undefined;
    return record;
  }

  async clear(key: string): Promise<void> {
    this.#records.delete(key);
  }

  /** Bounded memory: expired records go whenever a new failure is recorded. */
  #sweep(nowMs: number): void {
    if (this.#records.size < 10_000) return;
    for (const [key, record] of this.#records) if (record.expiresAt <= nowMs) this.#records.delete(key);
  }
}

/** Shared by every instance; when Redis does not answer, this instance's own memory serves. */
export class RedisFailureStore implements FailureStore {
  readonly #redis: Redis;
  readonly #fallback = new MemoryFailureStore();
  readonly #prefix: string;

  constructor(redis: Redis, prefix = 'mise-login-') {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  async record(key: string, nowMs: number, keepMs: number): Promise<FailureRecord> {
    try {
      const results = await this.#redis
        .multi()
        .hincrby(this.#prefix + key, 'failures', 1)
        .hset(this.#prefix + key, 'last', String(nowMs))
        .pexpire(this.#prefix + key, keepMs)
        .exec();
      const failures = Number(results?.[0]?.[1] ?? 1);
      return { failures, lastAt: nowMs };
    } catch {
      return this.#fallback.record(key, nowMs, keepMs);
    }
  }

  async read(key: string, nowMs: number): Promise<FailureRecord | undefined> {
    try {
      const [failures, last] = await this.#redis.hmget(this.#prefix + key, 'failures', 'last');
      if (!failures || !last) return this.#fallback.read(key, nowMs);
      return { failures: Number(failures), lastAt: Number(last) };
    } catch {
      return this.#fallback.read(key, nowMs);
    }
  }

  async clear(key: string): Promise<void> {
    await this.#fallback.clear(key);
    try {
      await this.#redis.del(this.#prefix + key);
    } catch {
      // the record expires by itself
    }
  }
}
