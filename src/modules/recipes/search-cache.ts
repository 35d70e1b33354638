/** Which recipes a search found, in order, and how many. */
export interface SearchHits {
  ids: string[];
  total: number;
}

/**
 * Search results shared by every caller who sees exactly the shared recipes (catalog and public
 * ones: anonymous callers and users without private recipes). Only the ids and the total are kept,
 * never the fields shown: the summaries are read fresh for each request, so ratings, titles,
 * images and favourites are always current, and a recipe deleted or made private meanwhile drops
 * out of the page. Which recipes match, and their order, may lag writes made on another instance
 * by up to the TTL; writes on this instance clear the cache at once. Concurrent misses for one
 * key share a single query.
 */
export class SearchCache {
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #clock: () => number;
  readonly #entries = new Map<string, { expires: number; hits: Promise<SearchHits> }>();

  constructor(options: { ttlMs: number; maxEntries: number; clock?: () => number }) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries;
    this.#clock = options.clock ?? Date.now;
  }

  get(key: string, load: () => Promise<SearchHits>): Promise<SearchHits> {
    const now = this.#clock();
    const cached = this.#entries.get(key);
    if (cached && cached.expires > now) return cached.hits;
    if (cached) this.#entries.delete(key);
    const hits = load();
    // A failed query is not remembered: the next caller tries again.
    hits.catch(() => {
      if (this.#entries.get(key)?.hits === hits) this.#entries.delete(key);
    });
    this.#entries.set(key, { expires: now + this.#ttlMs, hits });
    // Maps iterate in insertion order: the first key is the oldest entry.
    if (this.#entries.size > this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    return hits;
  }

  clear(): void {
    this.#entries.clear();
  }
}
