import type { InventoryPage } from './repository.ts';

/** At most this many inventory rows are held in all (a few hundred bytes each), least recent out. */
const MAX_ROWS_HELD = 50_000;

/**
 * Listing pages already read, by user, pantry version (pantry_versions, raised by triggers on every
 * change), filter, page and expiry cutoff: while the version is unchanged the page is still right,
 * so a repeated listing costs one primary-key read instead of the page and its counts.
 */
export class ListingCache {
  /** Least recently used first (a Map iterates in insertion order). */
  readonly #pages = new Map<string, InventoryPage>();
  #held = 0;

  get(key: string): InventoryPage | undefined {
    const page = this.#pages.get(key);
    if (!page) return undefined;
    this.#pages.delete(key);
    this.#pages.set(key, page);
    return page;
  }

  set(key: string, page: InventoryPage): void {
    this.#drop(key);
    if (page.rows.length > MAX_ROWS_HELD / 10) return; // a listing that large is not worth a tenth
    this.#pages.set(key, page);
    this.#held += page.rows.length + 1;
    while (this.#held > MAX_ROWS_HELD) this.#drop(this.#pages.keys().next().value!);
  }

  #drop(key: string): void {
    const page = this.#pages.get(key);
    if (!page) return;
    this.#pages.delete(key);
    this.#held -= page.rows.length + 1;
  }
}
