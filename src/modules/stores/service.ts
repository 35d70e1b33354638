import { randomUUID } from 'node:crypto';
import { conflict, invalidField, notFound, unsupportedMediaType } from '../../platform/errors.ts';
import { isUuid } from '../../platform/http/ids.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { FileStorage } from '../../providers/storage/storage.ts';
import { defineFlyerQueues, FLYER_QUEUE, type FlyerJobData } from './jobs.ts';
import { MATCH_THRESHOLD } from './pricing.ts';
import type { CandidateChanges, Matching, StoreListRow, StoresRepository } from './repository.ts';
import type { PromotionJobRow, PromotionRow, StoreRow } from './tables.ts';

export interface Page {
  limit: number;
  offset: number;
}

const PDF_MAGIC = Buffer.from('%PDF-', 'ascii');

/** Stores, flyer uploads, the review of extracted candidates and the live promotions users see. */
/** Candidates below this confidence are noise more often than offers (see extraction/layout.ts). */
export const DEFAULT_MIN_CONFIDENCE = 0.5;

export class StoresService {
  readonly #repo: StoresRepository;
  readonly #storage: FileStorage;
  readonly #queue: JobQueue;
  readonly #now: () => Date;

  readonly #minConfidence: number;

  /**
   * `minConfidence`: candidates below it are kept for audit but neither listed (unless asked) nor
   * promoted with their whole job; an admin may still promote one by its id.
   */
  constructor(
    repo: StoresRepository,
    storage: FileStorage,
    queue: JobQueue,
    now: () => Date,
    minConfidence = DEFAULT_MIN_CONFIDENCE,
  ) {
    this.#repo = repo;
    this.#storage = storage;
    this.#queue = queue;
    this.#now = now;
    this.#minConfidence = minConfidence;
  }

  /** Flyer jobs per status, for the operators' metrics. */
  jobCounts(): Promise<{ status: string; count: number }[]> {
    return this.#repo.countJobsByStatus();
  }

  /** Today's date (UTC), the cut-off for promotions that are still valid. */
  today(): string {
    return this.#now().toISOString().slice(0, 10);
  }

  async createStore(input: { name: string; logo_url: string }): Promise<StoreRow> {
    const store = await this.#repo.insertStore(input.name, input.logo_url);
    if (!store) throw conflict(`A store named "${input.name}" already exists.`);
    return store;
  }

  listStores(): Promise<StoreListRow[]> {
    return this.#repo.listStores(this.today());
  }

  async getStore(id: string): Promise<StoreRow> {
    const store = isUuid(id) ? await this.#repo.findStore(id) : undefined;
    if (!store) throw notFound('Store');
    return store;
  }

  /**
   * Accepts a flyer: checked to be a PDF by its content, stored, recorded as a pending job and
   * queued; extraction happens in the background.
   */
  async uploadFlyer(storeId: string, bytes: Buffer): Promise<PromotionJobRow> {
    const store = await this.getStore(storeId);
    if (bytes.length < PDF_MAGIC.length || !bytes.subarray(0, 1024).includes(PDF_MAGIC)) {
      throw unsupportedMediaType('The uploaded file is not a PDF.');
    }
    const jobId = randomUUID();
    const fileKey = `flyers/${store.id}/${jobId}.pdf`;
    await this.#storage.put(fileKey, bytes);
    const job = await this.#repo.insertJob(jobId, store.id, fileKey);
    try {
      await defineFlyerQueues(this.#queue);
      await this.#queue.send<FlyerJobData>(FLYER_QUEUE, { jobId }, jobId);
    } catch (error) {
      await this.#repo.failJob(jobId, 'The job could not be queued.', this.#now());
      throw error;
    }
    return job;
  }

  async listJobs(storeId: string): Promise<PromotionJobRow[]> {
    const store = await this.getStore(storeId);
    return this.#repo.listJobs(store.id);
  }

  async listCandidates(storeId: string, jobId: string | undefined, page: Page, includeLowConfidence = false) {
    const store = await this.getStore(storeId);
    if (jobId !== undefined && !isUuid(jobId)) return { rows: [], total: 0 };
    return this.#repo.listCandidates(store.id, jobId, page, includeLowConfidence ? 0 : this.#minConfidence);
  }

  /** Corrects an extracted (or live) promotion's fields; prices stay consistent (new ≤ old). */
  async updateCandidate(id: string, changes: CandidateChanges): Promise<PromotionRow> {
    const current = isUuid(id) ? await this.#repo.findPromotion(id) : undefined;
    if (!current) throw notFound('Candidate');
    const original = changes.original_price ?? current.original_price;
    const discounted = changes.discounted_price ?? current.discounted_price;
    if (discounted > original) {
      throw invalidField('discounted_price', 'must not be higher than original_price');
    }
    const updated = await this.#repo.updatePromotion(id, changes, this.#now(), this.#matching());
    if (!updated) throw notFound('Candidate');
    return updated;
  }

  async rejectCandidate(id: string): Promise<void> {
    const done = isUuid(id) && (await this.#repo.rejectPromotion(id, this.#now()));
    if (!done) throw notFound('Candidate');
  }

  /** Makes candidates of this store live, chosen by id or by job; answers how many. */
  async promote(storeId: string, selection: { candidate_ids?: string[]; job_id?: string }): Promise<number> {
    const store = await this.getStore(storeId);
    if (selection.job_id !== undefined) {
      const job = isUuid(selection.job_id) ? await this.#repo.findJob(selection.job_id) : undefined;
      if (!job || job.store_id !== store.id) throw notFound('Job');
      return this.#repo.promote(
        store.id,
        { jobId: job.id, minConfidence: this.#minConfidence },
        this.#now(),
        this.#matching(),
      );
    }
    const ids = (selection.candidate_ids ?? []).filter(isUuid);
    if (ids.length === 0) return 0;
    return this.#repo.promote(store.id, { ids }, this.#now(), this.#matching());
  }

  /** Promotions going live (or changing while live) get their ingredient matches right away. */
  #matching(): Matching {
    return { today: this.today(), threshold: MATCH_THRESHOLD };
  }

  /** Live promotions of a store that are still valid, optionally searched by product or brand. */
  async listPromotions(storeId: string, q: string | undefined, page: Page) {
    const store = await this.getStore(storeId);
    const result = await this.#repo.listLive(store.id, this.today(), q?.trim() || undefined, page);
    return { store, ...result };
  }
}
