import type { IngredientInfo } from './contract.ts';

/**
 * Ingredient search for GET /api/ingredients, over the in-memory catalog (pure). It runs here and
 * not in SQL because pg_trgm on the embedded database costs ~30 ms per 700 rows, and the catalog
 * is in memory anyway. Ranking, best first:
 *   0 exact name · 1 exact alias · 2 name prefix · 3 alias prefix · 4 substring of name or alias ·
 *   5 fuzzy: at least half of the query's trigrams occur in the ingredient's names (pg_trgm's
 *     "word similarity" idea: typos such as "tomatoe", "garlik")
 * then by similarity, shorter name, name.
 */

export const FUZZY_THRESHOLD = 0.5;

export interface SearchEntry {
  info: IngredientInfo;
  name: string;
  terms: string[];
  /** Of the name and every alias together, and of the name alone (a hit in the name ranks first). */
  trigrams: Set<string>;
  nameTrigrams: Set<string>;
}

export interface SearchIndex {
  entries: SearchEntry[];
  byName: IngredientInfo[];
}

/** Lower case, no accents, single spaces; punctuation kept ("2% milk" stays findable by "%"). */
export function searchKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** pg_trgm's trigrams: each alphanumeric word padded with two spaces before and one after. */
export function trigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of searchKey(text).split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i += 1) out.add(padded.slice(i, i + 3));
  }
  return out;
}

export function buildSearchIndex(list: readonly IngredientInfo[]): SearchIndex {
  const entries = list.map((info) => {
    const name = searchKey(info.name);
    const terms = [name, ...info.aliases.map(searchKey)];
    const grams = new Set<string>();
    for (const term of terms) for (const g of trigrams(term)) grams.add(g);
    return { info, name, terms, trigrams: grams, nameTrigrams: trigrams(name) };
  });
  const byName = [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
  return { entries, byName };
}

function tierOf(entry: SearchEntry, q: string): number | undefined {
  if (entry.name === q) return 0;
  if (entry.terms.includes(q)) return 1;
  if (entry.name.startsWith(q)) return 2;
  if (entry.terms.some((t) => t.startsWith(q))) return 3;
  if (entry.terms.some((t) => t.includes(q))) return 4;
  return undefined;
}

export function searchIngredients(
  index: SearchIndex,
  query: string,
  limit: number,
  offset: number,
): { items: IngredientInfo[]; total: number } {
  const q = searchKey(query);
  if (!q) return { items: index.byName.slice(offset, offset + limit), total: index.byName.length };
  const wanted = trigrams(q);
  const coverage = (grams: Set<string>) => {
    let shared = 0;
    for (const g of wanted) if (grams.has(g)) shared += 1;
    return wanted.size === 0 ? 0 : shared / wanted.size;
  };
  const hits: { info: IngredientInfo; tier: number; similarity: number; inName: number }[] = [];
  for (const entry of index.entries) {
    const similarity = coverage(entry.trigrams);
    const tier = tierOf(entry, q) ?? (similarity >= FUZZY_THRESHOLD ? 5 : undefined);
    if (tier !== undefined)
      hits.push({ info: entry.info, tier, similarity, inName: coverage(entry.nameTrigrams) });
  }
  hits.sort(
    (a, b) =>
      a.tier - b.tier ||
      b.similarity - a.similarity ||
      b.inName - a.inName ||
      a.info.name.length - b.info.name.length ||
      (a.info.name < b.info.name ? -1 : a.info.name > b.info.name ? 1 : 0),
  );
  return { items: hits.slice(offset, offset + limit).map((h) => h.info), total: hits.length };
}
