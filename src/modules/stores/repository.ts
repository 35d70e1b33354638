import type { OfferBox } from './extraction/layout.ts';
import { sql, type Kysely } from 'kysely';
import type { PromotionJobRow, PromotionRow, StoreRow, StoresTables } from './tables.ts';

/** Units that explain a high price: by weight, a case, a multi-pack, a large volume (PostgreSQL regex). */
const BULK_UNIT = String.raw`(kg|kilo|lb|pound|gal|fardo|caixa|case|pack|pk|[0-9] ?x ?[0-9]|[0-9] ?l$|litro|liter|litre)`;

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
  box?: OfferBox | undefined;
  fromTextLayer?: boolean | undefined;
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
  store_id: string;
  store_name: string;
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

  /** Flyer jobs per status (metrics). */
  async countJobsByStatus(): Promise<{ status: string; count: number }[]> {
    return this.#db
      .selectFrom('promotion_jobs')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('status')
      .execute();
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

  /**
   * Changes whenever a live promotion of any store is added, edited or withdrawn (every such change
   * bumps its store's promotions_version in the same transaction) or a store is added.
   */
  async promotionsVersion(): Promise<string> {
    const row = await this.#db
      .selectFrom('stores')
      .select([
        sql<number>`coalesce(sum(promotions_version), 0)`.as('changes'),
        sql<number>`count(*)`.as('stores'),
      ])
      .executeTakeFirstOrThrow();
    return `${row.changes}|${row.stores}`;
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
              box: o.box ? JSON.stringify(o.box) : null,
              from_text_layer: o.fromTextLayer ?? false,
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

  /**
   * Candidates of a finished run priced over `factor` × the median of the job's candidates, whose
   * unit does not explain it (weight, a case or a multi-pack), are kept for audit below the listing
   * threshold: on a grocery flyer they are misreadings (cents read as whole units) far more often
   * than offers. A bulk unit explains up to `bulkFactor` × the median. Needs `minCandidates` for
   * the median to mean anything. A candidate read from a text layer is as printed (a bottle of
   * whisky among groceries) and stays listed. Answers how many.
   */
  async demotePriceOutliers(
    jobId: string,
    rule: { factor: number; bulkFactor: number; minCandidates: number; confidence: number },
  ): Promise<number> {
    const result = await sql`
      update promotions p set confidence = least(p.confidence, ${rule.confidence})
      from (
        select percentile_cont(0.5) within group (order by discounted_price) as median, count(*) as n
        from promotions where job_id = ${jobId}
      ) m
      where p.job_id = ${jobId}
        and m.n >= ${rule.minCandidates}
        and not p.from_text_layer
        and p.discounted_price > ${rule.factor} * m.median
        and (p.unit !~* ${BULK_UNIT} or p.discounted_price > ${rule.bulkFactor} * m.median)`.execute(
      this.#db,
    );
    return Number(result.numAffectedRows ?? 0);
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
  /** `minConfidence`: candidates below it stay stored (for audit) but are not listed. */
  async listCandidates(
    storeId: string,
    jobId: string | undefined,
    page: { limit: number; offset: number },
    minConfidence = 0,
  ): Promise<{ rows: PromotionRow[]; total: number }> {
    let query = this.#db
      .selectFrom('promotions as p')
      .innerJoin('promotion_jobs as j', 'j.id', 'p.job_id')
      .where('p.store_id', '=', storeId);
    if (jobId) query = query.where('p.job_id', '=', jobId);
    if (minConfidence > 0) query = query.where('p.confidence', '>=', minConfidence);
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

  /** A live promotion's matches are resolved again: its product, brand or date may have changed. */
  async updatePromotion(
    id: string,
    changes: CandidateChanges,
    now: Date,
    matching: Matching,
  ): Promise<PromotionRow | undefined> {
    return this.#db.transaction().execute(async (trx) => {
      await lockMatching(trx);
      const row = await trx
        .updateTable('promotions')
        .set({ ...definedOnly(changes), updated_at: now })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (row?.status === 'live') {
        await touchStore(trx, row.store_id, now);
        await matchPromotions(trx, [row.id], matching);
      }
      return row;
    });
  }

  async rejectPromotion(id: string, now: Date): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      await lockMatching(trx);
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
      if (before.status === 'live') {
        await touchStore(trx, before.store_id, now);
        const dropped = await trx
          .deleteFrom('promotion_matches')
          .where('promotion_id', '=', id)
          .returning('ingredient_id')
          .execute();
        await refreshOffers(
          trx,
          dropped.map((d) => d.ingredient_id),
        );
      }
      return true;
    });
  }

  /**
   * Candidates of the store (by ids or by job) become live, their ingredient matches resolved in
   * the same transaction; answers how many did.
   */
  async promote(
    storeId: string,
    selection: { ids?: string[]; jobId?: string; minConfidence?: number },
    now: Date,
    matching: Matching,
  ): Promise<number> {
    return this.#db.transaction().execute(async (trx) => {
      await lockMatching(trx);
      let query = trx
        .updateTable('promotions')
        .set({ status: 'live', updated_at: now })
        .where('store_id', '=', storeId)
        .where('status', '=', 'candidate');
      if (selection.ids) query = query.where('id', 'in', selection.ids);
      if (selection.jobId) query = query.where('job_id', '=', selection.jobId);
      if (selection.minConfidence) query = query.where('confidence', '>=', selection.minConfidence);
      const promoted = await query.returning('id').execute();
      if (promoted.length > 0) {
        await touchStore(trx, storeId, now);
        await matchPromotions(
          trx,
          promoted.map((p) => p.id),
          matching,
        );
      }
      return promoted.length;
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

  /** The terms each ingredient's matches were resolved with (ingredients never matched are absent). */
  async matchedTerms(ingredientIds: readonly number[]): Promise<Map<number, string[]>> {
    if (ingredientIds.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom('promotion_match_terms')
      .selectAll()
      .where('ingredient_id', '=', sql<number>`any(${[...ingredientIds]}::int[])`)
      .execute();
    return new Map(rows.map((r) => [r.ingredient_id, r.terms]));
  }

  /**
   * Resolves ingredients' matches (with their current terms) against every live, still valid
   * promotion, replacing earlier ones; ingredients another request resolved meanwhile are skipped.
   */
  async matchIngredients(ingredients: readonly MatchTerms[], { today, threshold }: Matching): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      // Matching a large flyer may outlast a request's statement timeout (DB_STATEMENT_TIMEOUT_MS).
      await sql`select set_config('statement_timeout', '0', true)`.execute(trx);
      await lockMatching(trx);
      const known = await new StoresRepository(trx).matchedTerms(ingredients.map((i) => i.ingredientId));
      const stale = ingredients.filter((i) => !sameTerms(known.get(i.ingredientId), i.terms));
      if (stale.length === 0) return;
      const ids = stale.map((i) => i.ingredientId);
      const pairs = stale.flatMap((i) => i.terms.map((term) => ({ id: i.ingredientId, term })));
      await trx
        .deleteFrom('promotion_matches')
        .where('ingredient_id', '=', sql<number>`any(${ids}::int[])`)
        .execute();
      await sql`
        insert into promotion_matches (${MATCH_COLUMNS})
        select t.ingredient_id, p.id, max(${SCORE}), ${OFFER_COLUMNS}
        from unnest(${pairs.map((x) => x.id)}::int[], ${pairs.map((x) => x.term)}::text[]) as t(ingredient_id, term)
        join promotions p on ${CANDIDATE}
        where p.status = 'live' and p.valid_until >= ${today}::date
        group by t.ingredient_id, p.id
        having max(${SCORE}) >= ${threshold}`.execute(trx);
      await sql`
        insert into promotion_match_terms (ingredient_id, terms)
        select t.ingredient_id, array_agg(t.term order by t.term)
        from unnest(${pairs.map((x) => x.id)}::int[], ${pairs.map((x) => x.term)}::text[]) as t(ingredient_id, term)
        group by t.ingredient_id
        on conflict (ingredient_id) do update set terms = excluded.terms`.execute(trx);
      await refreshOffers(trx, ids);
    });
  }

  /**
   * Per ingredient: the terms its matches were resolved with and its matching offers still valid
   * `today`, best score first, then lowest price (the prebuilt `offers`, see refreshOffers), with
   * their store names. Ingredients never matched are absent. Two small reads, no aggregation.
   */
  async matchState(ingredientIds: readonly number[], today: string): Promise<Map<number, MatchState>> {
    const state = new Map<number, MatchState>();
    if (ingredientIds.length === 0) return state;
    const rows = await this.#db
      .selectFrom('promotion_match_terms')
      .select(['ingredient_id', 'terms', 'offers'])
      .where('ingredient_id', '=', sql<number>`any(${[...ingredientIds]}::int[])`)
      .execute();
    const storeIds = new Set<string>();
    const live = rows.map((row) => {
      const offers = (row.offers as OfferTuple[]).filter((o) => o[4] >= today);
      for (const offer of offers) storeIds.add(offer[0]);
      return { row, offers };
    });
    const names = await this.storeNames([...storeIds]);
    for (const { row, offers } of live) {
      const matches = offers.flatMap((o) => {
        const storeName = names.get(o[0]);
        return storeName === undefined ? [] : [toMatched(o, storeName)];
      });
      state.set(row.ingredient_id, { terms: row.terms, matches });
    }
    return state;
  }

  async storeNames(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom('stores')
      .select(['id', 'name'])
      .where('id', '=', sql<string>`any(${[...ids]}::uuid[])`)
      .execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}

/** What an ingredient's match resolution left: its terms and its live offers. */
export interface MatchState {
  terms: string[];
  matches: MatchedPromotion[];
}

/** An offer as stored in promotion_match_terms.offers. */
type OfferTuple = [
  storeId: string,
  original: number,
  discounted: number,
  unit: string,
  validUntil: string,
  score: number,
];

function toMatched(
  [storeId, original, discounted, unit, validUntil, score]: OfferTuple,
  storeName: string,
): MatchedPromotion {
  return {
    store_id: storeId,
    store_name: storeName,
    original_price: original,
    discounted_price: discounted,
    unit,
    valid_until: validUntil,
    score,
  };
}

/** What match resolution needs: today (expired promotions get no matches) and the score threshold. */
export interface Matching {
  today: string;
  threshold: number;
}

/** An ingredient's match terms: its name and aliases, lower-cased, trimmed, unique, sorted. */
export interface MatchTerms {
  ingredientId: number;
  terms: string[];
}

/** Namespace of the advisory lock that orders match resolutions (promote vs. ingredient side). */
const MATCH_LOCK_NAMESPACE = 1500;

/**
 * Match resolution and every change to live promotions run under this lock, taken first in their
 * transaction (so always before row locks: no deadlocks). A promotion going live while an
 * ingredient is matched is thus matched by one side or the other, and a rejected one cannot get
 * matches back from an ingredient matched concurrently.
 */
async function lockMatching(trx: Kysely<StoresTables>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${MATCH_LOCK_NAMESPACE}, 0)`.execute(trx);
}

/** A promotion `p` is worth scoring for term `t.term` (trigram-indexed; pg_trgm defaults 0.3/0.5). */
const CANDIDATE = sql`(p.product % t.term or t.term <<% p.product or t.term <<% p.brand)`;

/**
 * A share of a term's trigrams that any pair scoring at least MATCH_THRESHOLD (0.55) has in common
 * with the promotion's `brand || ' ' || product` trigrams, so pairs below it need no scoring. With
 * T, P, B the trigram sets of term, product and brand + product (P ⊆ B):
 * similarity = |T∩P| / (|T|+|P|−|T∩P|) ≥ 0.55 needs |T∩P| ≥ 0.55/1.55·|T| ≈ 0.355·|T|; both
 * strict_word_similarity scores are at most |T∩B| / |T| (the best extent's common trigrams over at
 * least |T|), so ≥ 0.55 needs |T∩B| ≥ 0.55·|T|. Either way |T∩B| ≥ 0.35·|T|.
 */
const SHARED_TRIGRAMS = 0.35;

/** promotion_matches columns, filled from a promotion `p` scored for `t.term`. */
const MATCH_COLUMNS = sql`ingredient_id, promotion_id, score, store_id, original_price, discounted_price, unit, valid_until`;
const OFFER_COLUMNS = sql`p.store_id, p.original_price, p.discounted_price, p.unit, p.valid_until`;

/** The score of promotion `p` for term `t.term` (the rule is documented in pricing.ts). */
const SCORE = sql`greatest(similarity(p.product, t.term),
  strict_word_similarity(t.term, p.product),
  strict_word_similarity(t.term, p.brand || ' ' || p.product))`;

/**
 * (Re)resolves promotions' matches against every ingredient matched so far (the others are matched
 * when first priced); only live, still valid promotions get matches. The caller holds lockMatching.
 */
async function matchPromotions(
  trx: Kysely<StoresTables>,
  promotionIds: readonly string[],
  { today, threshold }: Matching,
): Promise<void> {
  if (promotionIds.length === 0) return;
  const ids = [...promotionIds];
  const dropped = await trx
    .deleteFrom('promotion_matches')
    .where('promotion_id', '=', sql<string>`any(${ids}::uuid[])`)
    .returning('ingredient_id')
    .execute();
  // Candidate pairs share enough trigrams to possibly score MATCH_THRESHOLD (see SHARED_TRIGRAMS);
  // only those are scored. Found by joining trigram lists, not by trying every term on every
  // promotion: 500 promotions against the 711 seed ingredients' 3,448 terms, 17 s → 2.7 s, with
  // the same matches.
  const added = await sql<{ ingredient_id: number }>`
    with offer_trigrams as (
      select p.id, g.trigram
      from promotions p, unnest(show_trgm(p.brand || ' ' || p.product)) as g(trigram)
      where p.id = any(${ids}::uuid[]) and p.status = 'live' and p.valid_until >= ${today}::date),
    term_trigrams as (
      select t.ingredient_id, t.term, g.trigram,
             count(*) over (partition by t.ingredient_id, t.term) as size
      from (select k.ingredient_id, unnest(k.terms) as term from promotion_match_terms k) t,
           unnest(show_trgm(t.term)) as g(trigram)),
    pairs as (
      select o.id, t.ingredient_id, t.term
      from offer_trigrams o join term_trigrams t on t.trigram = o.trigram
      group by o.id, t.ingredient_id, t.term, t.size
      having count(*) >= ${SHARED_TRIGRAMS}::float8 * t.size)
    insert into promotion_matches (${MATCH_COLUMNS})
    select t.ingredient_id, p.id, max(${SCORE}), ${OFFER_COLUMNS}
    from pairs t join promotions p on p.id = t.id
    group by t.ingredient_id, p.id
    having max(${SCORE}) >= ${threshold}
    returning ingredient_id`.execute(trx);
  await refreshOffers(
    trx,
    [...dropped, ...added.rows].map((r) => r.ingredient_id),
  );
}

/**
 * Rebuilds the prebuilt offers (promotion_match_terms.offers) of these ingredients from their
 * promotion_matches rows: one JSON array each, in the order pricing breaks ties (best score, then
 * lowest price, then promotion id). Called in every transaction that changes matches.
 */
async function refreshOffers(trx: Kysely<StoresTables>, ingredientIds: readonly number[]): Promise<void> {
  const ids = [...new Set(ingredientIds)];
  if (ids.length === 0) return;
  await sql`
    update promotion_match_terms k set offers = coalesce((
      select json_agg(json_build_array(m.store_id, m.original_price, m.discounted_price, m.unit,
                                       m.valid_until, m.score)
                      order by m.score desc, m.discounted_price, m.promotion_id)
      from promotion_matches m
      where m.ingredient_id = k.ingredient_id), '[]'::json)
    where k.ingredient_id = any(${ids}::int[])`.execute(trx);
}

/** Same terms whatever their order (`terms` is sorted). */
export function sameTerms(known: readonly string[] | undefined, terms: readonly string[]): boolean {
  if (known?.length !== terms.length) return false;
  const sorted = [...known].sort();
  return sorted.every((t, i) => t === terms[i]);
}

async function touchStore(trx: Kysely<StoresTables>, storeId: string, now: Date): Promise<void> {
  await trx
    .updateTable('stores')
    .set((eb) => ({ promotions_changed_at: now, promotions_version: eb('promotions_version', '+', 1) }))
    .where('id', '=', storeId)
    .execute();
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
