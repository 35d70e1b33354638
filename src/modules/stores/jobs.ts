import type { JobQueue, QueuedJob, QueuePolicy } from '../../platform/jobs/queue.ts';
import { InvalidPdfError } from '../../providers/pdf/pdf.ts';
import { FileMissingError, type FileStorage } from '../../providers/storage/storage.ts';
import type { FlyerSource } from './extraction/flyer-reader.ts';
import type { StoresRepository } from './repository.ts';

/**
 * A price over 10× the flyer's median without a bulk unit is kept for audit, not listed (issue 12);
 * a weight or a case explains a higher price, but not one over 100× the median (a misreading still).
 */
const PRICE_OUTLIER_RULE = { factor: 10, bulkFactor: 100, minCandidates: 5, confidence: 0.2 };

export const FLYER_QUEUE = 'promotion-flyers';
export const FLYER_DEAD_LETTER_QUEUE = 'promotion-flyers-dead';

export interface FlyerJobData {
  jobId: string;
}

/**
 * Production policy: a run may take 15 minutes (OCR of many pages) before it counts as abandoned;
 * 3 retries with exponential backoff from 10 s.
 */
export const FLYER_QUEUE_POLICY: QueuePolicy = {
  expireInSeconds: 15 * 60,
  retryLimit: 3,
  retryDelaySeconds: 10,
};

/**
 * How a dead worker's job is noticed without waiting for the queue's expiry: a running attempt beats
 * every `heartbeatSeconds`; every worker sweeps each `sweepSeconds` for attempts silent for
 * `stalledAfterSeconds` and runs them again (the new attempt fences the old one out), up to
 * `maxAttempts` attempts in all, after which the job fails.
 */
export interface FlyerRecoveryPolicy {
  heartbeatSeconds: number;
  stalledAfterSeconds: number;
  sweepSeconds: number;
  maxAttempts: number;
}

export const FLYER_RECOVERY_POLICY: FlyerRecoveryPolicy = {
  heartbeatSeconds: 10,
  stalledAfterSeconds: 45,
  sweepSeconds: 15,
  maxAttempts: 5,
};

const INTERRUPTED = 'Processing was interrupted too many times.';

/**
 * Runs one flyer job. The promotion_jobs row is the state of record: pending → processing →
 * completed | failed. A run claims the row (attempt + 1, earlier candidates deleted), records each
 * page's candidates with the progress counters in one transaction fenced on its attempt, and ends
 * the row. So a re-run after a crash starts clean, and a superseded run can no longer write.
 */
export class FlyerJobProcessor {
  readonly #repo: StoresRepository;
  readonly #storage: FileStorage;
  readonly #reader: FlyerSource;
  readonly #now: () => Date;
  readonly #heartbeatMs: number;

  constructor(
    repo: StoresRepository,
    storage: FileStorage,
    reader: FlyerSource,
    now: () => Date,
    heartbeatSeconds = FLYER_RECOVERY_POLICY.heartbeatSeconds,
  ) {
    this.#repo = repo;
    this.#storage = storage;
    this.#reader = reader;
    this.#now = now;
    this.#heartbeatMs = heartbeatSeconds * 1000;
  }

  async process(queued: QueuedJob<FlyerJobData>): Promise<void> {
    const { jobId } = queued.data;
    const claim = await this.#repo.claimJob(jobId, this.#now());
    if (!claim) return; // finished, failed or deleted: nothing to do
    const { attempt, job } = claim;
    const heartbeat = setInterval(() => {
      this.#repo.beat(jobId, attempt).catch(() => undefined); // a missed beat only risks an early rescue
    }, this.#heartbeatMs);
    heartbeat.unref();
    try {
      const run = await this.#reader.open(await this.#storage.get(job.file_key), job.created_at);
      try {
        for (let page = 1; page <= run.pageCount; page += 1) {
          const offers = await run.extractPage(page);
          const owned = await this.#repo.recordPage(
            jobId,
            attempt,
            job.store_id,
            offers.map((o) => ({ ...o, page })),
          );
          if (!owned) return; // another run took the job over
        }
      } finally {
        await run.close();
      }
      await this.#repo.demotePriceOutliers(jobId, PRICE_OUTLIER_RULE);
      await this.#repo.finishRun(jobId, attempt, { status: 'completed', error: null, at: this.#now() });
    } catch (error) {
      const message = describe(error);
      const permanent = error instanceof InvalidPdfError || error instanceof FileMissingError;
      if (permanent || queued.retryCount >= queued.retryLimit) {
        await this.#repo.finishRun(jobId, attempt, { status: 'failed', error: message, at: this.#now() });
        return;
      }
      await this.#repo.finishRun(jobId, attempt, { status: 'pending', error: message, at: this.#now() });
      throw error; // the queue retries with backoff
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Takes the jobs of dead workers for a new run; answers their ids. */
  rescueStalled(policy: FlyerRecoveryPolicy): Promise<string[]> {
    return this.#repo.takeStalledJobs(policy.stalledAfterSeconds, policy.maxAttempts, INTERRUPTED);
  }

  /** The queue gave up (retries exhausted, e.g. every run was interrupted): the job fails. */
  async giveUp(queued: QueuedJob<FlyerJobData>): Promise<void> {
    await this.#repo.failJob(queued.data.jobId, INTERRUPTED, this.#now());
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 500) || 'Processing failed.';
}

/** The workers of one process: flyer jobs and their dead letters. */
export class FlyerWorker {
  readonly #queue: JobQueue;
  readonly #processor: FlyerJobProcessor;
  readonly #policy: QueuePolicy;
  readonly #afterStop: () => Promise<void>;
  readonly #recovery: FlyerRecoveryPolicy;
  #sweeper: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;

  constructor(
    queue: JobQueue,
    processor: FlyerJobProcessor,
    policy: QueuePolicy = FLYER_QUEUE_POLICY,
    afterStop: () => Promise<void> = async () => undefined,
    recovery: FlyerRecoveryPolicy = FLYER_RECOVERY_POLICY,
  ) {
    this.#queue = queue;
    this.#processor = processor;
    this.#policy = policy;
    this.#afterStop = afterStop;
    this.#recovery = recovery;
  }

  async start(): Promise<void> {
    await defineFlyerQueues(this.#queue, this.#policy, true);
    await this.#queue.work<FlyerJobData>(FLYER_QUEUE, (job) => this.#processor.process(job));
    await this.#queue.work<FlyerJobData>(FLYER_DEAD_LETTER_QUEUE, (job) => this.#processor.giveUp(job));
    this.#sweeper = setInterval(() => {
      this.#sweeping ??= this.#sweep().finally(() => (this.#sweeping = undefined));
    }, this.#recovery.sweepSeconds * 1000);
    this.#sweeper.unref();
  }

  /** Runs again the jobs whose worker died (the database being away only delays the sweep). */
  async #sweep(): Promise<void> {
    try {
      for (const jobId of await this.#processor.rescueStalled(this.#recovery)) {
        await this.#queue.send<FlyerJobData>(FLYER_QUEUE, { jobId });
      }
    } catch {
      // A taken job whose send failed is silent again after stalledAfterSeconds: the next sweep retries.
    }
  }

  /** graceful: let the running job finish; otherwise abandon it (rescued by another worker's sweep). */
  async stop(graceful = true): Promise<void> {
    clearInterval(this.#sweeper);
    await this.#sweeping;
    await this.#queue.stop({ graceful });
    await this.#afterStop();
  }
}

export async function defineFlyerQueues(
  queue: JobQueue,
  policy: QueuePolicy = FLYER_QUEUE_POLICY,
  update = false,
): Promise<void> {
  await queue.define(FLYER_DEAD_LETTER_QUEUE, { ...policy, retryLimit: 0 }, { update });
  await queue.define(FLYER_QUEUE, { ...policy, deadLetter: FLYER_DEAD_LETTER_QUEUE }, { update });
}
