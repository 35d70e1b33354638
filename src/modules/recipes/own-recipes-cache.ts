import { RecipeSearchIndex, type SearchDocument } from './search-index.ts';

/** Owners with more private recipes than this are searched in the database query by query. */
export const OWN_CACHE_MAX_PER_OWNER = 200;
/** At most this many private recipes are held in all (~20 MB at ~1 KB each), least recent out. */
const OWN_CACHE_MAX_RECIPES = 20_000;

/**
 * Recently searching owners' private recipes, each owner's as a small RecipeSearchIndex, so that
 * a signed-in search reads the database only for favourites. Kept current by the search feed from
 * the change log: any change to a recipe of an owner forgets that owner. Bounded by recipes held,
 * not by users: memory does not grow with the number of users.
 */
export class OwnRecipesCache {
  /** By owner, least recently used first (a Map iterates in insertion order). */
  readonly #entries = new Map<string, { index: RecipeSearchIndex; ids: readonly string[] }>();
  readonly #ownerOf = new Map<string, string>();
  #held = 0;
  /** Bumped by every forgetting: a read that started before one must not be kept. */
  #generation = 0;

  get generation(): number {
    return this.#generation;
  }

  get held(): number {
    return this.#held;
  }

  get(ownerId: string): RecipeSearchIndex | undefined {
    const entry = this.#entries.get(ownerId);
    if (!entry) return undefined;
    this.#entries.delete(ownerId);
    this.#entries.set(ownerId, entry);
    return entry.index;
  }

  /** Keeps an owner's documents read at `generation`, unless something was forgotten since. */
  set(ownerId: string, documents: readonly SearchDocument[], generation: number): RecipeSearchIndex {
    const index = new RecipeSearchIndex();
    index.load(documents);
    if (generation !== this.#generation || documents.length > OWN_CACHE_MAX_PER_OWNER) return index;
    this.#drop(ownerId);
    const ids = documents.map((d) => d.id);
    this.#entries.set(ownerId, { index, ids });
    for (const id of ids) this.#ownerOf.set(id, ownerId);
    this.#held += ids.length;
    while (this.#held > OWN_CACHE_MAX_RECIPES && this.#entries.size > 1) {
      this.#drop(this.#entries.keys().next().value!);
    }
    return index;
  }

  /** A recipe changed: its owner (now, or when it was read) is read again at their next search. */
  forget(recipeId: string, ownerId: string | null | undefined): void {
    this.#generation += 1;
    if (ownerId) this.#drop(ownerId);
    const heldFor = this.#ownerOf.get(recipeId);
    if (heldFor) this.#drop(heldFor);
  }

  clear(): void {
    this.#generation += 1;
    for (const ownerId of [...this.#entries.keys()]) this.#drop(ownerId);
  }

  #drop(ownerId: string): void {
    const entry = this.#entries.get(ownerId);
    if (!entry) return;
    this.#entries.delete(ownerId);
    for (const id of entry.ids) this.#ownerOf.delete(id);
    this.#held -= entry.ids.length;
  }
}
