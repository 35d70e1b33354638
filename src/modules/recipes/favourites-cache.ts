/** Users with more favourites than this are asked about each page in the database. */
export const FAVOURITES_CACHE_MAX_PER_USER = 500;
/** At most this many favourite ids are held in all (~10 MB), least recent user out. */
const FAVOURITES_CACHE_MAX_IDS = 100_000;

/**
 * Recently searching users' favourite recipe ids, so that a signed-in search page's is_favourite
 * needs no database read. Kept current by the search feed: this instance forgets a user at their
 * own favouriting, every instance at its next read of the change log (favourites are logged
 * there). A user with too many is remembered as such (null) and asked about page by page. Bounded
 * by ids held, not by users.
 */
export class FavouritesCache {
  /** By user, least recently used first (a Map iterates in insertion order). */
  readonly #entries = new Map<string, ReadonlySet<string> | null>();
  #held = 0;
  /** Bumped by every forgetting: a read that started before one must not be kept. */
  #generation = 0;

  get generation(): number {
    return this.#generation;
  }

  /** The user's favourites; null when they have too many to hold; undefined when not held. */
  get(userId: string): ReadonlySet<string> | null | undefined {
    const entry = this.#entries.get(userId);
    if (entry === undefined) return undefined;
    this.#entries.delete(userId);
    this.#entries.set(userId, entry);
    return entry;
  }

  /**
   * Keeps a user's favourite ids (every one of them, or more than the maximum) read at
   * `generation`, unless something was forgotten since; answers what to use for this request.
   */
  set(userId: string, ids: readonly string[], generation: number): ReadonlySet<string> | null {
    const entry = ids.length > FAVOURITES_CACHE_MAX_PER_USER ? null : new Set(ids);
    if (generation !== this.#generation) return entry;
    this.#drop(userId);
    this.#entries.set(userId, entry);
    this.#held += entry?.size ?? 1;
    while (this.#held > FAVOURITES_CACHE_MAX_IDS && this.#entries.size > 1) {
      this.#drop(this.#entries.keys().next().value!);
    }
    return entry;
  }

  forget(userId: string): void {
    this.#generation += 1;
    this.#drop(userId);
  }

  clear(): void {
    this.#generation += 1;
    this.#entries.clear();
    this.#held = 0;
  }

  #drop(userId: string): void {
    if (!this.#entries.has(userId)) return;
    this.#held -= this.#entries.get(userId)?.size ?? 1;
    this.#entries.delete(userId);
  }
}
