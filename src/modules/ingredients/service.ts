import type { IngredientCatalog, IngredientInfo } from './contract.ts';
import { parseIngredientLine, type ParsedIngredientLine } from './line-parser.ts';
import { NameIndex } from './names.ts';
import { presentListItem, type IngredientListItem } from './presenter.ts';
import type { IngredientRecord, IngredientsRepository } from './repository.ts';
import { buildSearchIndex, searchIngredients, type SearchIndex } from './search.ts';
import { INGREDIENTS } from './seed/ingredients.ts';
import { translatedNames } from './seed/names-i18n.ts';
import type { IngredientSeed } from './seed/types.ts';
import type { IngredientRow } from './tables.ts';

interface CatalogSnapshot {
  loadedAt: number;
  byId: Map<number, StoredIngredient>;
  list: StoredIngredient[];
  names: NameIndex;
  search: SearchIndex;
}

/**
 * How long the in-memory copy of the table is trusted. Writes through this service refresh it at
 * once; after the TTL a background refresh makes foods imported by the CLI (another process)
 * appear without a restart, while callers keep being served from the current copy.
 */
const CACHE_TTL_MS = 60_000;

export interface ImportOutcome {
  inserted: number;
  skippedExistingNdb: number;
  skippedExistingName: number;
}

/** The ingredient reference table: the catalog every module resolves ingredients against. */
export class IngredientsService implements IngredientCatalog {
  readonly #repo: IngredientsRepository;
  readonly #clock: () => number;
  #snapshot: Promise<CatalogSnapshot> | undefined;
  #refreshing = false;

  constructor(repo: IngredientsRepository, clock: () => number = Date.now) {
    this.#repo = repo;
    this.#clock = clock;
  }

  async get(id: number): Promise<StoredIngredient | undefined> {
    return (await this.#load()).byId.get(id);
  }

  async getMany(ids: readonly number[]): Promise<Map<number, StoredIngredient>> {
    const { byId } = await this.#load();
    const out = new Map<number, StoredIngredient>();
    for (const id of ids) {
      const hit = byId.get(id);
      if (hit) out.set(id, hit);
    }
    return out;
  }

  async resolveName(name: string): Promise<StoredIngredient | undefined> {
    const { names, byId } = await this.#load();
    const hit = names.resolve(name);
    return hit ? byId.get(hit.id) : undefined;
  }

  async all(): Promise<StoredIngredient[]> {
    return (await this.#load()).list;
  }

  /** A free-text ingredient line ("2 cloves garlic, minced") parsed and resolved against the catalog. */
  async parseLine(text: string): Promise<ParsedIngredientLine> {
    return parseIngredientLine(text, (await this.#load()).names);
  }

  /** GET /api/ingredients: q matches names and aliases, typo-tolerant (search.ts has the ranking). */
  async search(
    q: string | undefined,
    limit: number,
    offset: number,
  ): Promise<{ items: IngredientListItem[]; total: number }> {
    const { items, total } = searchIngredients((await this.#load()).search, q ?? '', limit, offset);
    return { items: items.map(presentListItem), total };
  }

  /** Loads the hand-written reference ingredients (idempotent: upsert by id). Answers the count. */
  async seedIngredients(): Promise<number> {
    // An imported food may hold a name a newer seed entry takes: it steps aside (keeping its id).
    await this.#repo.renameImportedClashing(INGREDIENTS.map((s) => s.name));
    await this.#repo.upsertById(INGREDIENTS.map(seedRecord));
    this.#snapshot = undefined;
    return INGREDIENTS.length;
  }

  /**
   * Adds imported foods, never duplicating: a food whose USDA number or name (or alias) is already
   * known is skipped. Each record needs `usda_ndb`; ids come from the imported-id sequence.
   */
  async importFoods(records: IngredientRecord[]): Promise<ImportOutcome> {
    this.#snapshot = undefined;
    const { list, names } = await this.#load();
    const knownNdb = new Set(list.flatMap((i) => (i.usdaNdb ? [i.usdaNdb] : [])));
    const fresh: IngredientRecord[] = [];
    const seenNames = new Set<string>();
    let skippedExistingNdb = 0;
    let skippedExistingName = 0;
    for (const record of records) {
      if (record.usda_ndb && knownNdb.has(record.usda_ndb)) skippedExistingNdb += 1;
      else if (names.exact(record.name) || seenNames.has(record.name)) skippedExistingName += 1;
      else {
        fresh.push({ ...record, id: undefined });
        seenNames.add(record.name);
        if (record.usda_ndb) knownNdb.add(record.usda_ndb);
      }
    }
    const inserted = await this.#repo.insertNew(fresh);
    skippedExistingName += fresh.length - inserted; // lost a race with a concurrent insert
    this.#snapshot = undefined;
    return { inserted, skippedExistingNdb, skippedExistingName };
  }

  async #load(): Promise<CatalogSnapshot> {
    const now = this.#clock();
    const current = this.#snapshot;
    if (!current) return this.#reload(now);
    const snapshot = await current;
    if (now - snapshot.loadedAt >= CACHE_TTL_MS && this.#snapshot === current && !this.#refreshing) {
      // Stale: callers keep the current copy while one refresh runs in the background.
      this.#refreshing = true;
      this.#build(now)
        .then((fresh) => {
          if (this.#snapshot === current) this.#snapshot = Promise.resolve(fresh);
        })
        .catch(() => undefined) // the next call after the TTL tries again
        .finally(() => {
          this.#refreshing = false;
        });
    }
    return snapshot;
  }

  async #build(now: number): Promise<CatalogSnapshot> {
    const list = (await this.#repo.listAll()).map(toInfo);
    return {
      loadedAt: now,
      list,
      byId: new Map(list.map((i) => [i.id, i])),
      names: new NameIndex(list),
      search: buildSearchIndex(list),
    };
  }

  /** A synchronous-for-callers reload: after this service's own writes, or the first use. */
  #reload(now: number): Promise<CatalogSnapshot> {
    const loading = this.#build(now);
    // A failed load is not cached: the next call tries again.
    loading.catch(() => {
      if (this.#snapshot === loading) this.#snapshot = undefined;
    });
    this.#snapshot = loading;
    return loading;
  }
}

/** IngredientInfo plus where it came from, for importers and cross-checks. */
export interface StoredIngredient extends IngredientInfo {
  usdaNdb: string | null;
  source: 'seed' | 'usda';
}

function toInfo(row: IngredientRow): StoredIngredient {
  return {
    id: row.id,
    name: row.name,
    aliases: row.aliases,
    category: row.category,
    defaultUnit: row.default_unit,
    nutrition: { kcal: row.kcal, protein: row.protein, carbs: row.carbs, fat: row.fat, fiber: row.fiber },
    allergens: row.allergens,
    diet: row.diet,
    density: row.density,
    pieceGrams: row.piece_g,
    measures: row.measures ?? {},
    usdaNdb: row.usda_ndb,
    source: row.source,
  };
}

/** The catalog view of a seed entry (what the table holds after seeding), for pure code and tests. */
export function seedToInfo(s: IngredientSeed): StoredIngredient {
  return toInfo({ ...seedRecord(s), id: s.id, search_text: '', updated_at: new Date(0) });
}

function seedRecord(s: IngredientSeed): IngredientRecord {
  return {
    id: s.id,
    name: s.name,
    aliases: [...new Set([...s.aliases, ...translatedNames(s.name)])].filter((a) => a !== s.name),
    category: s.category,
    default_unit: s.default_unit,
    kcal: s.kcal,
    protein: s.protein,
    carbs: s.carbs,
    fat: s.fat,
    fiber: s.fiber,
    allergens: s.allergens,
    diet: s.diet,
    density: s.density ?? null,
    piece_g: s.piece_g ?? null,
    measures: s.measures ?? {},
    usda_ndb: s.usda_ndb ?? null,
    source: 'seed',
  };
}
