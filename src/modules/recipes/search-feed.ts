import type { Viewer } from './contract.ts';
import { FAVOURITES_CACHE_MAX_PER_USER, FavouritesCache } from './favourites-cache.ts';
import { OWN_CACHE_MAX_PER_OWNER, OwnRecipesCache } from './own-recipes-cache.ts';
import type { PrivateSearchFilters, RecipesRepository } from './repository.ts';
import {
  byTitle,
  hitOfDocument,
  parseQueryText,
  RecipeSearchIndex,
  type SearchDocument,
  type IndexQuery,
  type QueryTerm,
  type SearchHit,
} from './search-index.ts';

/** What the feed reads (RecipesRepository implements it). */
export type SearchSource = Pick<
  RecipesRepository,
  | 'searchDocuments'
  | 'sharedSearchDocuments'
  | 'privateSearchDocuments'
  | 'searchLog'
  | 'searchChanges'
  | 'pruneSearchChanges'
  | 'stemQuery'
  | 'sharedRecipeCount'
  | 'hasRankingIndex'
  | 'databaseSearch'
  | 'favouriteIds'
  | 'favouritesAmong'
>;

export interface SearchFeedOptions {
  /** How often the change log is read (writes on other instances show within this). */
  pollMs?: number;
  /** Where a failed background read is reported (the next one tries again). */
  onError?: (error: unknown) => void;
  /**
   * Memory the index may take (SEARCH_INDEX_BUDGET_MB), at BYTES_PER_INDEXED_RECIPE a shared
   * recipe; past it every search is answered by PostgreSQL.
   */
  budgetBytes?: number;
}

/**
 * What one shared recipe costs the index on the heap: measured by loading the 100,000 shared
 * recipes of the million-recipe bench from PostgreSQL (975 bytes) and 100,000 and 300,000 fresh
 * copies of the catalog's real recipes (tsvectors of ~410 characters: 987 and 976 bytes), heap
 * compared after a full garbage collection (docs/recipes.md).
 */
export const BYTES_PER_INDEXED_RECIPE = 1_000;
const DEFAULT_BUDGET_BYTES = 256 * 1024 * 1024;
/** In database mode, how often the number of shared recipes is looked at again. */
const BUDGET_RECHECK_MS = 300_000;

const POLL_MS = 2_000;
/**
 * Change-log rows live this long; an index that has not read the log for half of it reloads, and
 * a number missing from the log for that long is taken for a rolled-back transaction's.
 */
const CHANGE_LOG_SECONDS = 3_600;
const GAP_LIFETIME_MS = (CHANGE_LOG_SECONDS * 1000) / 2;
/** At most this many ranges of missing numbers are looked for (the closest are merged). */
const MAX_GAPS = 64;
const PRUNE_EVERY_MS = 600_000;
/** Changes to more recipes than this (and a quarter of the index) are read by a full reload. */
const RELOAD_OVER = 5_000;
const STEMMED_CACHE_SIZE = 2_000;
/** Shared recipes read per statement when the index loads. */
const LOAD_BATCH = 5_000;

/**
 * Keeps a RecipeSearchIndex of the shared recipes (catalog and public) current with the database:
 * a full load started by the first search (PostgreSQL answers until it is done), then the change log (recipe_search_changes, written by triggers
 * on recipes) every `pollMs` and right after each write this instance makes, so that a writer's
 * next search sees its write and other instances' writes show within `pollMs`.
 *
 * Private recipes are not held: they are read where they live, by owner (all of them for an
 * admin), ranked by the same code and merged into the page and the total. The index's memory
 * grows with the shared catalog, not with the number of users.
 */
export class RecipeSearchFeed {
  readonly #source: SearchSource;
  readonly #pollMs: number;
  readonly #onError: (error: unknown) => void;
  #index = new RecipeSearchIndex();
  readonly #own = new OwnRecipesCache();
  readonly #favourites = new FavouritesCache();
  readonly #stemmed = new Map<string, Stemmed>();
  #loading: Promise<void> | undefined;
  /** Set when the first load is done: searches are answered as `#mode` says from then on. */
  #loaded = false;
  #position = new LogPosition();
  #lastRead = 0;
  #lastPrune = 0;
  #chain: Promise<void> = Promise.resolve();
  #queued: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #budgetBytes: number;
  /** 'database' while the shared recipes exceed the budget: PostgreSQL answers every search. */
  #mode: 'memory' | 'database' = 'memory';
  #lastBudgetCheck = 0;
  #rankingIndex: Promise<boolean> | undefined;

  constructor(source: SearchSource, options: SearchFeedOptions = {}) {
    this.#source = source;
    this.#pollMs = options.pollMs ?? POLL_MS;
    this.#onError = options.onError ?? ((error) => console.error('recipe search index: read failed', error));
    this.#budgetBytes = options.budgetBytes ?? DEFAULT_BUDGET_BYTES;
  }

  /** How many recipes the in-memory index holds (the shared ones, once loaded). */
  get indexedRecipes(): number {
    return this.#index.size;
  }

  /**
   * Where searches are answered: 'loading' until the first load is done (PostgreSQL answers
   * meanwhile), then the in-memory index, or PostgreSQL past the budget.
   */
  get mode(): 'loading' | 'memory' | 'database' {
    return this.#loaded ? this.#mode : 'loading';
  }

  /** Settles once the first load (started by the first search) is done or has failed. */
  async loaded(): Promise<void> {
    await this.#loading?.catch(() => undefined);
  }

  /** The page of matches the viewer may see, and how many match in all. */
  async search(
    query: Omit<IndexQuery, 'terms'> & { tsQuery?: string | undefined },
    viewer: Viewer | undefined,
    page: { limit: number; offset: number },
  ): Promise<{ hits: SearchHit[]; total: number }> {
    const { tsQuery, ...filters } = query;
    const stemmed = tsQuery === undefined ? undefined : await this.#stem(tsQuery);
    const indexQuery: IndexQuery = { ...filters, terms: stemmed?.terms };
    if (!this.#loaded) {
      // A new instance answers from PostgreSQL (same ranking and totals) while its index loads,
      // rather than keeping its first searches waiting for 100,000 recipes to be read.
      if (!this.#loading) this.#ready().catch(this.#onError);
      return this.#databaseSearch(indexQuery, viewer, page);
    }
    if (this.#mode === 'database') return this.#databaseSearch(indexQuery, viewer, page);
    if (!viewer) return this.#index.search(indexQuery, undefined, page);
    const upTo = { offset: 0, limit: page.offset + page.limit };
    const own = await this.#privateMatches(indexQuery, stemmed?.text, viewer, upTo.limit);
    const shared = this.#index.search(indexQuery, undefined, own.total === 0 ? page : upTo);
    if (own.total === 0) return shared;
    const ranked = indexQuery.terms !== undefined;
    const merged = [...shared.hits, ...own.hits].sort(
      (a, b) => (ranked ? b.score - a.score : 0) || byTitle(a, b),
    );
    return { hits: merged.slice(page.offset, page.offset + page.limit), total: shared.total + own.total };
  }

  /**
   * Which of `recipeIds` the user has favourited: from the cache of their favourites while the
   * index follows the change log (which forgets them when they change), else from the database.
   */
  async favouritesAmong(userId: string, recipeIds: readonly string[]): Promise<Set<string>> {
    if (recipeIds.length === 0) return new Set();
    if (!this.#loaded || this.#mode !== 'memory') return this.#source.favouritesAmong(userId, recipeIds);
    let held = this.#favourites.get(userId);
    if (held === undefined) {
      const generation = this.#favourites.generation;
      const ids = await this.#source.favouriteIds(userId, FAVOURITES_CACHE_MAX_PER_USER + 1);
      held = this.#favourites.set(userId, ids, generation);
    }
    if (held === null) return this.#source.favouritesAmong(userId, recipeIds);
    return new Set(recipeIds.filter((id) => held.has(id)));
  }

  /** The user changed their favourites here: read them again at their next search. */
  forgetFavourites(userId: string): void {
    this.#favourites.forget(userId);
  }

  /**
   * The viewer's private recipes that match (everyone's for an admin), the first `limit` in the
   * page's order, ranked by a RecipeSearchIndex of just them so that scores compare exactly.
   */
  async #privateMatches(
    query: IndexQuery,
    tsQuery: string | undefined,
    viewer: Viewer,
    limit: number,
  ): Promise<{ hits: SearchHit[]; total: number }> {
    if (query.terms?.length === 0) return { hits: [], total: 0 }; // no lexemes: nothing matches
    if (!viewer.isAdmin) {
      const own = await this.#ownRecipes(viewer.id);
      if (own) return own.search(query, viewer, { offset: 0, limit });
    }
    const { documents, total } = await this.#source.privateSearchDocuments(
      viewer.isAdmin ? undefined : viewer.id,
      filtersOf(query),
      tsQuery,
      limit,
    );
    if (documents.length === 0) return { hits: [], total };
    const own = new RecipeSearchIndex();
    own.load(documents);
    const found = own.search(query, viewer, { offset: 0, limit });
    // Without words the database counted past the rows it sent; with words it sent every match.
    return { hits: found.hits, total: query.terms === undefined ? total : found.total };
  }

  /**
   * Reads the change log now (after the calls already waiting), unless nothing is loaded yet.
   * Never rejects: a failure is reported and the timer's next read tries again.
   */
  sync(): Promise<void> {
    const loading = this.#loading;
    if (!loading) return Promise.resolve();
    // After the load too: a read racing the first load could apply a write the load then misses.
    this.#queued ??= this.#chain
      .then(() => loading)
      .finally(() => (this.#queued = undefined))
      .then(() => this.#read());
    const next = this.#queued.catch(this.#onError);
    this.#chain = next;
    return next;
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #ready(): Promise<void> {
    this.#loading ??= this.#reload().then(
      () => {
        this.#loaded = true;
        this.#startTimer();
      },
      (error: unknown) => {
        this.#loading = undefined; // the next search tries again
        throw error;
      },
    );
    return this.#loading;
  }

  /**
   * An owner's private recipes as a small index, from the cache or read whole (when they are few
   * enough to keep); undefined for an owner with too many, searched query by query.
   */
  async #ownRecipes(ownerId: string): Promise<RecipeSearchIndex | undefined> {
    const cached = this.#own.get(ownerId);
    if (cached) return cached;
    const generation = this.#own.generation;
    const { documents, total } = await this.#source.privateSearchDocuments(
      ownerId,
      { diets: [] },
      undefined,
      OWN_CACHE_MAX_PER_OWNER + 1,
    );
    if (total > OWN_CACHE_MAX_PER_OWNER) return undefined;
    return this.#own.set(ownerId, documents, generation);
  }

  /** The whole search in PostgreSQL (ranked there as the index ranks). */
  async #databaseSearch(
    query: IndexQuery,
    viewer: Viewer | undefined,
    page: { limit: number; offset: number },
  ): Promise<{ hits: SearchHit[]; total: number }> {
    this.#rankingIndex ??= this.#source.hasRankingIndex().catch((error: unknown) => {
      this.#rankingIndex = undefined;
      throw error;
    });
    const { documents, total } = await this.#source.databaseSearch(
      viewer,
      filtersOf(query),
      query.terms,
      page,
      await this.#rankingIndex,
    );
    return { hits: documents.map(({ document, score }) => hitOfDocument(document, score)), total };
  }

  async #reload(): Promise<void> {
    this.#lastBudgetCheck = Date.now();
    if ((await this.#source.sharedRecipeCount()) * BYTES_PER_INDEXED_RECIPE > this.#budgetBytes) {
      return this.#toDatabase();
    }
    const log = await this.#source.searchLog();
    this.#own.clear();
    this.#favourites.clear();
    // Built aside in batches, then put in place at once. The next batch is read while this one is
    // indexed (two batches of rows alive at a time), so the database's work and ours overlap.
    const index = new RecipeSearchIndex();
    index.startLoad();
    let next = this.#source.sharedSearchDocuments(undefined, LOAD_BATCH);
    try {
      for (;;) {
        const batch = await next;
        const more = batch.length === LOAD_BATCH;
        if (more) next = this.#source.sharedSearchDocuments(batch.at(-1)!.id, LOAD_BATCH);
        index.appendLoaded(batch);
        if (!more) break;
      }
    } catch (error) {
      next.catch(() => undefined); // a read still under way fails on its own; the load has failed
      throw error;
    }
    index.finishLoad();
    this.#index = index;
    this.#position = LogPosition.at(log.last, log.gaps, Date.now());
    this.#lastRead = Date.now();
    this.#mode = 'memory';
  }

  #toDatabase(): void {
    if (this.#mode === 'memory') {
      console.warn(
        `recipe search: the shared recipes exceed SEARCH_INDEX_BUDGET_MB (${Math.round(this.#budgetBytes / 1048576)} MB); PostgreSQL answers searches`,
      );
    }
    this.#mode = 'database';
    this.#index.load([]);
    this.#own.clear(); // PostgreSQL answers owners too
    this.#favourites.clear();
    this.#lastRead = Date.now();
  }

  async #read(): Promise<void> {
    if (this.#mode === 'database') {
      // Nothing to keep current: look again now and then whether the index would fit again.
      if (Date.now() - this.#lastBudgetCheck > BUDGET_RECHECK_MS) await this.#reload();
      return this.#prune();
    }
    if (Date.now() - this.#lastRead > GAP_LIFETIME_MS) return this.#reload();
    const changes = await this.#source.searchChanges(this.#position.last, this.#position.ranges());
    for (const change of changes) if ('favouritesOf' in change) this.#favourites.forget(change.favouritesOf);
    const ids = [...new Set(changes.flatMap((c) => ('recipeId' in c ? [c.recipeId] : [])))];
    if (ids.length > RELOAD_OVER && ids.length * 4 > this.#index.size) return this.#reload();
    if (ids.length > 0) {
      const documents = await this.#source.searchDocuments(ids);
      const present = new Set(documents.map((d) => d.id));
      for (const document of documents) {
        if (isShared(document)) this.#index.upsert(document);
        else this.#index.remove(document.id); // made private: read by owner from now on
        this.#own.forget(document.id, document.ownerId);
      }
      for (const id of ids) {
        if (present.has(id)) continue;
        this.#index.remove(id);
        this.#own.forget(id, undefined);
      }
    }
    this.#position.advance(
      changes.map((c) => c.seq),
      Date.now(),
    );
    this.#lastRead = Date.now();
    if (this.#index.size * BYTES_PER_INDEXED_RECIPE > this.#budgetBytes) this.#toDatabase();
    await this.#prune();
  }

  async #prune(): Promise<void> {
    if (Date.now() - this.#lastPrune <= PRUNE_EVERY_MS) return;
    this.#lastPrune = Date.now();
    await this.#source.pruneSearchChanges(CHANGE_LOG_SECONDS);
  }

  #startTimer(): void {
    if (this.#closed || this.#timer) return;
    this.#timer = setInterval(() => void this.sync(), this.#pollMs);
    this.#timer.unref();
  }

  /** The query as the database stems it (remembered: a word always stems the same). */
  async #stem(tsQuery: string): Promise<Stemmed> {
    const known = this.#stemmed.get(tsQuery);
    if (known) return known;
    const text = await this.#source.stemQuery(tsQuery);
    const stemmed = { text, terms: parseQueryText(text) };
    if (this.#stemmed.size >= STEMMED_CACHE_SIZE) this.#stemmed.delete(this.#stemmed.keys().next().value!);
    this.#stemmed.set(tsQuery, stemmed);
    return stemmed;
  }
}

/** A query's stemmed text (to_tsquery's output, for the database) and its terms (for the index). */
interface Stemmed {
  text: string;
  terms: QueryTerm[];
}

function filtersOf(query: IndexQuery): PrivateSearchFilters {
  const { cuisine, difficulty, maxTime, mealType } = query;
  const diets = query.dietary === undefined ? [] : [query.dietary].flat();
  return { cuisine, difficulty, maxTime, diets, mealType };
}

function isShared(document: SearchDocument): boolean {
  return document.ownerId === null || document.isPublic;
}

interface Gap {
  lo: number;
  hi: number;
  since: number;
}

/**
 * How far the change log has been read: the highest number seen, and the numbers missing below
 * it. A number is taken when its row is inserted but the row shows only when its transaction
 * commits, so a missing number is a transaction still running (or one rolled back): it is looked
 * for again at every read until it shows or GAP_LIFETIME_MS passes.
 */
export class LogPosition {
  last = 0;
  #gaps: Gap[] = [];

  /** The position after reading a whole log (its numbers, ascending). */
  static of(seqs: readonly number[], now: number): LogPosition {
    const position = new LogPosition();
    if (seqs.length === 0) return position;
    position.last = seqs[0]!;
    position.advance(seqs.slice(1), now);
    return position;
  }

  /** The position from a log's highest number and the ranges missing below it. */
  static at(last: number, gaps: ReadonlyArray<readonly [number, number]>, now: number): LogPosition {
    const position = new LogPosition();
    position.last = last;
    position.#gaps = merged(gaps.map(([lo, hi]) => ({ lo, hi, since: now })));
    return position;
  }

  /** Inclusive ranges of the missing numbers. */
  ranges(): Array<[number, number]> {
    return this.#gaps.map((g) => [g.lo, g.hi]);
  }

  /** Takes the numbers just read (after `last` or within a gap). */
  advance(seqs: readonly number[], now: number): void {
    const found = [...seqs].sort((a, b) => a - b);
    const gaps = this.#gaps.flatMap((gap) => without(gap, found));
    let next = this.last + 1;
    for (const seq of found) {
      if (seq < next) continue;
      if (seq > next) gaps.push({ lo: next, hi: seq - 1, since: now });
      next = seq + 1;
    }
    this.last = next - 1;
    this.#gaps = merged(gaps.filter((g) => now - g.since < GAP_LIFETIME_MS));
  }
}

/** A gap less the numbers found in it (sorted). */
function without(gap: Gap, found: readonly number[]): Gap[] {
  const out: Gap[] = [];
  let lo = gap.lo;
  for (const seq of found) {
    if (seq < lo || seq > gap.hi) continue;
    if (seq > lo) out.push({ lo, hi: seq - 1, since: gap.since });
    lo = seq + 1;
  }
  if (lo <= gap.hi) out.push({ lo, hi: gap.hi, since: gap.since });
  return out;
}

/** At most MAX_GAPS ranges: the two closest neighbours are joined until that holds. */
function merged(gaps: Gap[]): Gap[] {
  const sorted = gaps.sort((a, b) => a.lo - b.lo);
  while (sorted.length > MAX_GAPS) {
    let at = 0;
    for (let i = 1; i < sorted.length - 1; i++) {
      if (sorted[i + 1]!.lo - sorted[i]!.hi < sorted[at + 1]!.lo - sorted[at]!.hi) at = i;
    }
    const [a, b] = [sorted[at]!, sorted[at + 1]!];
    sorted.splice(at, 2, { lo: a.lo, hi: b.hi, since: Math.min(a.since, b.since) });
  }
  return sorted;
}
