import PgBoss from 'pg-boss';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';
import { pgliteExecutor } from './pglite-adapter.ts';

/**
 * The durable job queue: pg-boss over the service's own database (PostgreSQL through the pool,
 * PGlite through an adapter). pg-boss fetches with `FOR UPDATE SKIP LOCKED`, so one job goes to
 * one worker; a job whose worker died is expired after `expireInSeconds` by the supervisor of any
 * running worker process and retried (with backoff) up to `retryLimit` times.
 */
export interface QueuePolicy {
  /** How long one run may take before the job is considered abandoned and retried. */
  expireInSeconds: number;
  retryLimit: number;
  /** First retry delay; doubles per attempt (retryBackoff). */
  retryDelaySeconds: number;
  /** Queue that receives a job once its retries are exhausted (it must be defined first). */
  deadLetter?: string;
}

export interface QueuedJob<T> {
  id: string;
  data: T;
  /** 0 on the first run, then 1, 2, ... */
  retryCount: number;
  retryLimit: number;
}

export type JobHandler<T> = (job: QueuedJob<T>) => Promise<void>;

export interface QueueOptions {
  /** Run pg-boss's supervisor (expiry, retries of abandoned jobs): on in processes that work. */
  supervise: boolean;
  superviseIntervalSeconds?: number;
  /** How often expired (abandoned) jobs are looked for; defaults to the supervise interval. */
  monitorIntervalSeconds?: number;
  pollingIntervalSeconds?: number;
  onError?: (error: Error) => void;
}

/** pg-boss's own schema beside the service's: `pgboss`, or `<schema>_pgboss` for an isolated schema. */
export function jobSchemaFor(database: DatabaseHandle): string {
  return database.schema === 'public' ? 'pgboss' : `${database.schema}_pgboss`;
}

export class JobQueue {
  readonly #boss: PgBoss;
  readonly #pollingIntervalSeconds: number;
  #started: Promise<void> | undefined;
  #stopped = false;
  readonly #queues = new Map<string, Promise<void>>();

  constructor(database: DatabaseHandle, options: QueueOptions) {
    const db = database.pglite
      ? pgliteExecutor(database.pglite)
      : { executeSql: (text: string, values: unknown[]) => database.pool!.query(text, values) };
    this.#boss = new PgBoss({
      db,
      schema: jobSchemaFor(database),
      supervise: options.supervise,
      superviseIntervalSeconds: options.superviseIntervalSeconds ?? 60,
      monitorIntervalSeconds: options.monitorIntervalSeconds ?? options.superviseIntervalSeconds ?? 60,
      schedule: false,
    });
    this.#pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
    this.#boss.on('error', options.onError ?? (() => undefined));
  }

  /** Idempotent; sending also starts the queue, so a process that only enqueues needs no call. */
  start(): Promise<void> {
    this.#started ??= this.#boss.start().then(() => undefined);
    return this.#started;
  }

  /**
   * Creates the queue when missing. `update` also applies the policy to an existing queue (workers
   * do; processes that only send keep whatever policy the workers set).
   */
  async define(name: string, policy: QueuePolicy, options: { update?: boolean } = {}): Promise<void> {
    const key = `${name}:${options.update ? 'update' : 'create'}`;
    let created = this.#queues.get(key);
    if (!created) {
      created = this.#createQueue(name, policy, options.update ?? false);
      this.#queues.set(key, created);
    }
    await created;
  }

  async send<T extends object>(name: string, data: T, id?: string): Promise<string> {
    await this.start();
    const jobId = await this.#boss.send(name, data, id ? { id } : {});
    if (!jobId) throw new Error(`the job queue refused a job for ${name}`);
    return jobId;
  }

  /** Processes jobs one at a time per worker; a handler that throws makes pg-boss retry the job. */
  async work<T>(name: string, handler: JobHandler<T>): Promise<string> {
    await this.start();
    return this.#boss.work<T>(
      name,
      { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: this.#pollingIntervalSeconds },
      async (jobs) => {
        for (const job of jobs) {
          await handler({
            id: job.id,
            data: job.data,
            retryCount: job.retryCount,
            retryLimit: job.retryLimit,
          });
        }
      },
    );
  }

  /**
   * graceful: wait (up to timeoutMs) for running handlers; otherwise abandon them: their jobs stay
   * active until they expire and are retried elsewhere (what a crash looks like).
   */
  async stop(options: { graceful?: boolean; timeoutMs?: number } = {}): Promise<void> {
    if (this.#stopped || !this.#started) return;
    this.#stopped = true;
    await this.#started.catch(() => undefined);
    await this.#boss.stop({
      graceful: options.graceful ?? true,
      timeout: options.timeoutMs ?? 10_000,
      wait: true,
      close: false,
    });
  }

  async #createQueue(name: string, policy: QueuePolicy, update: boolean): Promise<void> {
    await this.start();
    const queue = {
      name,
      expireInSeconds: policy.expireInSeconds,
      retryLimit: policy.retryLimit,
      retryDelay: policy.retryDelaySeconds,
      retryBackoff: true,
      ...(policy.deadLetter ? { deadLetter: policy.deadLetter } : {}),
    };
    if (!(await this.#boss.getQueue(name))) {
      try {
        await this.#boss.createQueue(name, queue);
        return;
      } catch (error) {
        // Another process created it meanwhile: fall through to the update.
        if (!(await this.#boss.getQueue(name))) throw error;
      }
    }
    if (update) await this.#boss.updateQueue(name, queue);
  }
}

/** Jobs per queue and state (created, retry, active, completed, failed, cancelled): queue depth and outcomes. */
export async function jobCounts(
  database: DatabaseHandle,
): Promise<{ queue: string; state: string; count: number }[]> {
  const table = sql.id(jobSchemaFor(database), 'job');
  const result = await sql<{ queue: string; state: string; count: number }>`
    select name as queue, state::text as state, count(*)::int as count
    from ${table} group by name, state`.execute(database.db);
  return result.rows;
}
