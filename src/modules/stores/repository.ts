import { sql, type Kysely } from 'kysely';
import type { PromotionJobRow, PromotionRow, StoreRow, StoresTables } from './tables.ts';

export interface StoreListRow extends StoreRow {
  promotion_count: number;
  last_updated: Date;
}

export interface NewOffer {
  product: string;
  brand: string;
  originalPrice: number;
  discountedPrice: number;
  unit: string;
  validUntil: string;
  page: number;
  confidence: number;
}

export interface CandidateChanges {
  product?: string | undefined;
  brand?: string | undefined;
  original_price?: number | undefined;
  discounted_price?: number | undefined;
  unit?: string | undefined;
  valid_until?: string | undefined;
}

export interface MatchedPromotion {
  id: string;
  store_id: string;
  store_name: string;
  product: string;
  brand: string;
  original_price: number;
  discounted_price: number;
  unit: string;
  valid_until: string;
  score: number;
}

const UNIQUE_VIOLATION = '23505';

export class StoresRepository {
  readonly #db: Kysely<StoresTables>;
  constructor(db: Kysely<StoresTables>) {
    this.#db = db;
  }

  /** The new store, or undefined when the name (case-insensitive) is taken. */
  async insertStore(name: string, logoUrl: string): Promise<StoreRow | undefined> {
    try {
      return await this.#db
        .insertInto('stores')
        .values({ name, logo_url: logoUrl })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return undefined;
      throw error;
    }
  }

  findStore(id: string): Promise<StoreRow | undefined> {
    return this.#db.selectFrom('stores').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async listStores(today: string): Promise<StoreListRow[]> {
    return this.#db
      .selectFrom('stores as s')
      .selectAll('s')
      .select([
        sql<number>`(select count(*) from promotions p
          where p.store_id = s.id and p.status = 'live' and p.valid_until >= ${today}::date)::int`.as(
          'promotion_count',
        ),
        sql<Date>`greatest(s.created_at, coalesce(s.promotions_changed_at, s.created_at))`.as('last_updated'),
      ])
      .orderBy(sql`lower(s.name)`)
      .execute();
  }

  async insertJob(id: string, storeId: string, fileKey: string): Promise<PromotionJobRow> {
    return this.#db
      .insertInto('promotion_jobs')
      .values({ id, store_id: storeId, file_key: fileKey, error: null, started_at: null, completed_at: null })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  findJob(id: string): Promise<PromotionJobRow | undefined> {
    return this.#db.selectFrom('promotion_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listJobs(storeId: string): Promise<PromotionJobRow[]> {
    return this.#db
      .selectFrom('promotion_jobs')
      .selectAll()
      .where('store_id', '=', storeId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  /**
   * Claims a job for one run: pending/processing → processing, attempts + 1, progress reset, and
   * the candidates of any earlier (interrupted) run deleted, all in one transaction. Answers the
   * run's attempt number (its fencing token), or undefined when the job is finished or gone.
   */
  async claimJob(jobId: string, now: Date): Promise<{ attempt: number; job: PromotionJobRow } | undefined> {
    return this.#db.transaction().execute(async (trx) => {
      const job = await trx
        .updateTable('promotion_jobs')
        .set((eb) => ({
          status: 'processing',
          attempts: eb('attempts', '+', 1),
          pages_processed: 0,
          candidates_extracted: 0,
          error: null,
          started_at: now,
          heartbeat_at: sql<Date>`now()`,
        }))
        .where('id', '=', jobId)
        .where('status', 'in', ['pending', 'processing'])
        .returningAll()
        .executeTakeFirst();
      if (!job) return undefined;
      await trx
        .deleteFrom('promotions')
        .where('job_id', '=', jobId)
        .where('status', '=', 'candidate')
        .execute();
      return { attempt: job.attempts, job };
    });
  }

  /**
   * Stores one page's candidates and advances the progress counters, only while this run still
   * owns the job (status processing and the same attempt). False when another run took over.
   */
  async recordPage(jobId: string, attempt: number, storeId: string, offers: NewOffer[]): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const owned = await trx
        .selectFrom('promotion_jobs')
        .select('id')
        .where('id', '=', jobId)
        .where('attempts', '=', attempt)
        .where('status', '=', 'processing')
        .forUpdate()
        .executeTakeFirst();
      if (!owned) return false;
      if (offers.length > 0) {
        await trx
          .insertInto('promotions')
          .values(
            offers.map((o, position) => ({
              store_id: storeId,
              position,
              job_id: jobId,
              product: o.product,
              brand: o.brand,
              original_price: o.originalPrice,
              discounted_price: o.discountedPrice,
              unit: o.unit,
              valid_until: o.validUntil,
              page: o.page,
              confidence: o.confidence,
            })),
          )
          .execute();
      }
      await trx
        .updateTable('promotion_jobs')
        .set((eb) => ({
          pages_processed: eb('pages_processed', '+', 1),
          candidates_extracted: eb('candidates_extracted', '+', offers.length),
          heartbeat_at: sql<Date>`now()`,
        }))
        .where('id', '=', jobId)
        .execute();
      return true;
    });
  }

  /** The running attempt is alive (between pages, which may take long to OCR). */
  async beat(jobId: string, attempt: number): Promise<void> {
    await this.#db
      .updateTable('promotion_jobs')
      .set({ heartbeat_at: sql<Date>`now()` })
      .where('id', '=', jobId)
      .where('attempts', '=', attempt)
      .where('status', '=', 'processing')
      .execute();
  }

  /**
   * Jobs whose running attempt went silent for `silentSeconds` (its worker died): those with
   * attempts left are taken for a new run (their heartbeat is bumped in the same statement, so one
   * sweeper of many takes each); the others fail with `error`. Answers the ids to run again.
   */
  async takeStalledJobs(silentSeconds: number, maxAttempts: number, error: string): Promise<string[]> {
    const silent = sql<boolean>`coalesce(heartbeat_at, started_at, created_at) < now() - make_interval(secs => ${silentSeconds})`;
    return this.#db.transaction().execute(async (trx) => {
      await trx
        .updateTable('promotion_jobs')
        .set({ status: 'failed', error, completed_at: sql<Date>`now()` })
        .where('status', '=', 'processing')
        .where(silent)
        .where('attempts', '>=', maxAttempts)
        .execute();
      const taken = await trx
        .updateTable('promotion_jobs')
        .set({ heartbeat_at: sql<Date>`now()` })
        .where('status', '=', 'processing')
        .where(silent)
        .returning('id')
        .execute();
      return taken.map((row) => row.id);
    });
  }

  /** Ends this run: completed, failed (keeping the error), or back to pending for a retry. */
  async finishRun(
    jobId: string,
    attempt: number,
    outcome: { status: 'completed' | 'failed' | 'pending'; error: string | null; at: Date },
  ): Promise<boolean> {
    const result = await this.#db
      .updateTable('promotion_jobs')
      .set({
        status: outcome.status,
        error: outcome.error,
        completed_at: outcome.status === 'pending' ? null : outcome.at,
      })
      .where('id', '=', jobId)
      .where('attempts', '=', attempt)
      .where('status', '=', 'processing')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Marks a job failed whatever its run (the queue gave up on it). */
  async failJob(jobId: string, error: string, at: Date): Promise<void> {
    await this.#db
      .updateTable('promotion_jobs')
      .set({ status: 'failed', error, completed_at: at })
      .where('id', '=', jobId)
      .where('status', 'in', ['pending', 'processing'])
      .execute();
  }

  /** Extracted promotions of a store, newest job first, then in the flyer's reading order. */
  async listCandidates(
    storeId: string,
    jobId: string | undefined,
    page: { limit: number; offset: number },
  ): Promise<{ rows: PromotionRow[]; total: number }> {
    let query = this.#db
      .selectFrom('promotions as p')
      .innerJoin('promotion_jobs as j', 'j.id', 'p.job_id')
      .where('p.store_id', '=', storeId);
    if (jobId) query = query.where('p.job_id', '=', jobId);
    const [rows, count] = await Promise.all([
      query
        .selectAll('p')
        .orderBy('j.created_at', 'desc')
        .orderBy('p.job_id')
        .orderBy('p.page')
        .orderBy('p.position')
        .orderBy('p.id')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: count.total };
  }

  findPromotion(id: string): Promise<PromotionRow | undefined> {
    return this.#db.selectFrom('promotions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async updatePromotion(id: string, changes: CandidateChanges, now: Date): Promise<PromotionRow | undefined> {
    return this.#db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('promotions')
        .set({ ...definedOnly(changes), updated_at: now })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (row?.status === 'live') await touchStore(trx, row.store_id, now);
      return row;
    });
  }

  async rejectPromotion(id: string, now: Date): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('promotions')
        .select(['status', 'store_id'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!before) return false;
      await trx
        .updateTable('promotions')
        .set({ status: 'rejected', updated_at: now })
        .where('id', '=', id)
        .execute();
      if (before.status === 'live') await touchStore(trx, before.store_id, now);
      return true;
    });
  }

  /** Candidates of the store (by ids or by job) become live; answers how many did. */
  async promote(storeId: string, selection: { ids?: string[]; jobId?: string }, now: Date): Promise<number> {
    return this.#db.transaction().execute(async (trx) => {
      let query = trx
        .updateTable('promotions')
        .set({ status: 'live', updated_at: now })
        .where('store_id', '=', storeId)
        .where('status', '=', 'candidate');
      if (selection.ids) query = query.where('id', 'in', selection.ids);
      if (selection.jobId) query = query.where('job_id', '=', selection.jobId);
      const result = await query.executeTakeFirst();
      const promoted = Number(result.numUpdatedRows);
      if (promoted > 0) await touchStore(trx, storeId, now);
      return promoted;
    });
  }

  async listLive(
    storeId: string,
    today: string,
    q: string | undefined,
    page: { limit: number; offset: number },
  ): Promise<{ rows: PromotionRow[]; total: number }> {
    let query = this.#db
      .selectFrom('promotions')
      .where('store_id', '=', storeId)
      .where('status', '=', 'live')
      .where('valid_until', '>=', today);
    if (q) {
      const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) => eb.or([eb('product', 'ilike', pattern), eb('brand', 'ilike', pattern)]));
    }
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('product').orderBy('id').limit(page.limit).offset(page.offset).execute(),
      query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: count.total };
  }

  /**
   * For each item (its terms: the ingredient's name and aliases), the live, still valid promotions
   * that match it. Candidates are found through the trigram indexes (`product % term`,
   * `term <<% product`, `term <<% brand`; pg_trgm's default thresholds 0.3 / 0.5 are below ours),
   * then scored: score = greatest over the item's terms of similarity(product, term),
   * strict_word_similarity(term, product) and strict_word_similarity(term, brand || ' ' || product)
   * (pg_trgm ignores case); kept when score ≥ threshold. One query for the whole list.
   */
  async matchLive(
    itemTerms: string[][],
    today: string,
    threshold: number,
  ): Promise<Map<number, MatchedPromotion[]>> {
    const items: number[] = [];
    const terms: string[] = [];
    itemTerms.forEach((list, item) => {
      for (const term of new Set(list.map((t) => t.toLowerCase().trim()).filter(Boolean))) {
        items.push(item);
        terms.push(term);
      }
    });
    const matches = new Map<number, MatchedPromotion[]>();
    if (terms.length === 0) return matches;
    const result = await sql<MatchedPromotion & { item: number }>`
      with terms as (
        select x.item, x.term from unnest(${items}::int[], ${terms}::text[]) as x(item, term)
      ),
      hits as (
        select t.item, p.id,
               max(greatest(similarity(p.product, t.term),
                            strict_word_similarity(t.term, p.product),
                            strict_word_similarity(t.term, p.brand || ' ' || p.product))) as score
        from terms t
        join promotions p
          on (p.product % t.term or t.term <<% p.product or t.term <<% p.brand)
        where p.status = 'live' and p.valid_until >= ${today}::date
        group by t.item, p.id
      )
      select h.item, h.score, p.id, p.store_id, s.name as store_name, p.product, p.brand,
             p.original_price, p.discounted_price, p.unit, p.valid_until
      from hits h
      join promotions p on p.id = h.id
      join stores s on s.id = p.store_id
      where h.score >= ${threshold}
      order by h.item, h.score desc, p.discounted_price asc, p.id`.execute(this.#db);
    for (const row of result.rows) {
      const { item, ...match } = row;
      const list = matches.get(Number(item)) ?? [];
      list.push({ ...match, score: Number(match.score) });
      matches.set(Number(item), list);
    }
    return matches;
  }
}

async function touchStore(trx: Kysely<StoresTables>, storeId: string, now: Date): Promise<void> {
  await trx.updateTable('stores').set({ promotions_changed_at: now }).where('id', '=', storeId).execute();
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
