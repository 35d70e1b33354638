import type { Viewer } from './contract.ts';
import { PostingBuilder } from './posting-builder.ts';

/**
 * The recipe search index: every recipe's full-text lexemes (as PostgreSQL's english configuration
 * derives them into `recipes.search`) and the columns search filters on, held in memory so that
 * a query costs work proportional to its matches at a few nanoseconds each. A common word (one
 * recipe in 12 of 100,000) is ranked and counted in well under a millisecond, where PostgreSQL
 * visits every match's heap page for ts_rank and for the count (~40 ms, see docs/recipes.md).
 *
 * The index is fed by search-feed.ts (a full load, then the recipes' change log) and serves the
 * result fields too, so a search page needs no database read (but the caller's favourites).
 */

/** One recipe as the index stores it. `vector` is `recipes.search` as text ('soup':3A,7C ...). */
export interface SearchDocument {
  id: string;
  title: string;
  ownerId: string | null;
  isPublic: boolean;
  cuisine: string;
  difficulty: string;
  totalTime: number;
  fits: readonly string[];
  mealTypes: readonly string[];
  vector: string;
  shown: ShownFields;
}

/**
 * What a search result shows besides id and title, served from the index (the change log carries
 * every column of it, ratings and images included); RecipesService adds is_favourite.
 */
export interface ShownFields {
  description: string;
  cuisine: string;
  difficulty: string;
  prepTime: number;
  cookTime: number;
  servings: number;
  calories: number;
  ratingCount: number;
  ratingSum: number;
  imageUrl: string | null;
}

/** `score`: the rank a search with words orders by (0 without words). */
export type SearchHit = { id: string; title: string; score: number } & ShownFields;

/** One word of a query, as to_tsquery('english') stems it; `prefix` for `word:*`. */
export interface QueryTerm {
  lexeme: string;
  prefix: boolean;
}

export interface IndexQuery {
  /** Undefined: no full-text condition. Empty: a text that has no lexemes matches nothing. */
  terms?: readonly QueryTerm[] | undefined;
  cuisine?: string | undefined;
  difficulty?: string | undefined;
  maxTime?: number | undefined;
  /** One diet tag, or several that must all fit (a user's restrictions). */
  dietary?: string | readonly string[] | undefined;
  mealType?: string | undefined;
}

/**
 * A lexeme's documents and their scores. Typed arrays once a load is finished (4 + 4 bytes an
 * entry, exact length: half of what plain arrays take), plain arrays again for the lexemes later
 * writes append to.
 */
interface Posting {
  ords: number[] | Int32Array;
  scores: number[] | Float32Array;
}

function appendable(posting: Posting): { ords: number[]; scores: number[] } {
  if (!Array.isArray(posting.ords)) posting.ords = Array.from(posting.ords);
  if (!Array.isArray(posting.scores)) posting.scores = Array.from(posting.scores);
  return posting as { ords: number[]; scores: number[] };
}

function packed(posting: Posting): void {
  // Scores are single-precision values (Math.fround), so a Float32Array holds them exactly.
  if (Array.isArray(posting.ords)) posting.ords = Int32Array.from(posting.ords);
  if (Array.isArray(posting.scores)) posting.scores = Float32Array.from(posting.scores);
}

/** Tags (diets, meal types) a document can be filtered by, as bits: the vocabularies are small. */
const MAX_TAGS = 31;

/** Typed columns of the filters, by ordinal; grown by doubling. */
class Columns {
  shared = new Uint8Array(0);
  cuisine = new Int32Array(0);
  difficulty = new Int32Array(0);
  time = new Int32Array(0);
  fits = new Int32Array(0);
  meals = new Int32Array(0);
  /** Place in title order as a number that sorts the same way (gaps left for inserts). */
  titleRank = new Float64Array(0);

  ensure(size: number): void {
    if (this.shared.length >= size) return;
    const capacity = Math.max(1024, size * 2);
    const grow = <T extends { set(from: T): void }>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    this.shared = grow(this.shared, (n) => new Uint8Array(n));
    this.cuisine = grow(this.cuisine, (n) => new Int32Array(n));
    this.difficulty = grow(this.difficulty, (n) => new Int32Array(n));
    this.time = grow(this.time, (n) => new Int32Array(n));
    this.fits = grow(this.fits, (n) => new Int32Array(n));
    this.meals = grow(this.meals, (n) => new Int32Array(n));
    this.titleRank = grow(this.titleRank, (n) => new Float64Array(n));
  }
}

/** Interns strings as small numbers (cuisines, difficulties, tags). */
class Interner {
  readonly #ids = new Map<string, number>();
  readonly #values: string[] = [];
  id(value: string): number {
    let id = this.#ids.get(value);
    if (id === undefined) {
      this.#ids.set(value, (id = this.#ids.size));
      this.#values.push(value);
    }
    return id;
  }
  /** The one copy of an equal string held (interned if new). */
  canonical(value: string): string {
    return this.#values[this.id(value)]!;
  }
  known(value: string): number | undefined {
    return this.#ids.get(value);
  }
  /** Bit mask of tags (tags past MAX_TAGS are not filterable: the vocabularies are fixed). */
  mask(values: readonly string[]): number {
    let mask = 0;
    for (const v of values) {
      const id = this.id(v);
      if (id < MAX_TAGS) mask |= 1 << id;
    }
    return mask;
  }
}

interface Doc {
  id: string;
  title: string;
  ownerId: string | null;
  ord: number;
  shown: ShownFields;
}

/** ts_rank's default weights of D, C, B, A, in single precision as PostgreSQL holds them. */
const WEIGHTS = [0.1, 0.2, 0.4, 1.0].map(Math.fround);
/** pi^2 / 6, the limit of sum(1/i^2) that ts_rank normalises by. */
const SUM_INVERSE_SQUARES = 1.64493406685;
/** One-word orders kept (the most recently built), at most this many ordinals in all (16 MB with their scores). */
const WORD_ORDER_BUDGET = 2_000_000;
/** Compact the postings once this many entries point at replaced or deleted recipes. */
const COMPACT_AFTER_DEAD = 5_000;

/**
 * One lexeme's part of ts_rank (PostgreSQL's calc_rank_or, single precision step by step): each
 * occurrence's weight divided by the square of its place, the heaviest one counted fully.
 */
export function lexemeScore(weights: readonly number[]): number {
  let sum = 0;
  let heaviest = -1;
  let heaviestAt = 0;
  weights.forEach((w, j) => {
    sum = Math.fround(sum + Math.fround(w / ((j + 1) * (j + 1))));
    if (w > heaviest) {
      heaviest = w;
      heaviestAt = j;
    }
  });
  const place = (heaviestAt + 1) * (heaviestAt + 1);
  return Math.fround(Math.fround(heaviest + sum) - Math.fround(heaviest / place)) / SUM_INVERSE_SQUARES;
}

const QUOTE = 39;
const COLON = 58;
const COMMA = 44;
const SPACE = 32;
/** Weight letters A..D (char codes 65..68) as ts_rank's weights. */
const WEIGHT_BY_LETTER = [WEIGHTS[3]!, WEIGHTS[2]!, WEIGHTS[1]!, WEIGHTS[0]!];
/** A lexeme without positions: one occurrence of weight D, as ts_rank assumes. */
const UNPOSITIONED_SCORE = lexemeScore([WEIGHTS[0]!]);
const weightsScratch: number[] = [];

/**
 * Parses a tsvector's text form ('it''s':1A 'soup':2,3B) into (lexeme, score) pairs: one pass over
 * the characters (loading 100,000 recipes parses some 25 million of them).
 */
export function parseVector(text: string): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  forEachLexeme(text, (lexeme, score) => out.push([lexeme, score]));
  return out;
}

/** parseVector without the pairs: each (lexeme, score) handed to `visit` as it is read. */
export function forEachLexeme(text: string, visit: (lexeme: string, score: number) => void): void {
  const end = text.length;
  let i = 0;
  while (i < end) {
    if (text.charCodeAt(i) !== QUOTE) {
      i += 1;
      continue;
    }
    let lexeme = '';
    let from = ++i;
    for (; i < end; i++) {
      if (text.charCodeAt(i) !== QUOTE) continue;
      if (text.charCodeAt(i + 1) !== QUOTE) break;
      lexeme += text.slice(from, i + 1); // '' is a quote
      from = ++i + 1;
    }
    lexeme += text.slice(from, i);
    i += 1; // the closing quote
    if (text.charCodeAt(i) !== COLON) {
      visit(lexeme, UNPOSITIONED_SCORE);
      continue;
    }
    weightsScratch.length = 0;
    for (i += 1; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === SPACE) break;
      if (c === COMMA) continue;
      if (c >= 48 && c <= 57) {
        const next = text.charCodeAt(i + 1);
        if (next >= 48 && next <= 57) continue; // more digits of the position
        weightsScratch.push(next >= 65 && next <= 68 ? WEIGHT_BY_LETTER[next - 65]! : WEIGHTS[0]!);
      }
    }
    visit(lexeme, lexemeScore(weightsScratch));
  }
}

/** Parses to_tsquery's text form ('chicken' & 'soup':*) into its terms (every word is ANDed). */
export function parseQueryText(text: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  const operand = /'((?:[^']|'')*)'(:\*)?/g;
  for (let m = operand.exec(text); m; m = operand.exec(text)) {
    terms.push({ lexeme: m[1]!.replace(/''/g, "'"), prefix: m[2] !== undefined });
  }
  return terms;
}

export function byTitle(a: { title: string; id: string }, b: { title: string; id: string }): number {
  if (a.title !== b.title) return a.title < b.title ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export class RecipeSearchIndex {
  #docs: (Doc | undefined)[] = [];
  readonly #byId = new Map<string, Doc>();
  #postings = new Map<string, Posting>();
  /** Every lexeme, sorted, for prefix ranges. */
  #lexemes: string[] = [];
  /** Live ordinals in title order (then id): the order of a search without words. */
  #titleOrder: number[] = [];
  /** The same per cuisine, for the most common filter. */
  #titleOrderByCuisine = new Map<number, number[]>();
  #columns = new Columns();
  readonly #values = new Interner();
  readonly #tags = new Interner();
  #dead = 0;
  /** Live documents that are not shared: while there are none, visibility filters nothing. */
  #private = 0;
  /** Bumped by every removal: counts of live matches kept with a word's order are valid until then. */
  #removals = 0;
  /** Set between startLoad and finishLoad: the postings of the load being built. */
  #loading: PostingBuilder | undefined;
  #scores = new Float64Array(0);
  #hits = new Uint8Array(0);
  /** One-word queries' live matches in rank order, valid while no document is added. */
  readonly #wordOrders = new Map<string, WordOrder>();
  #wordOrdersSize = 0;
  /** Bumped whenever ordinals are added or renumbered. */
  #generation = 0;

  get size(): number {
    return this.#byId.size;
  }

  /** Replaces the whole content. */
  load(documents: Iterable<SearchDocument>): void {
    this.startLoad();
    this.appendLoaded(documents);
    this.finishLoad();
  }

  /**
   * A load in batches (startLoad, appendLoaded per batch, finishLoad), so that only one batch of
   * rows is alive at a time; searches must wait for finishLoad.
   */
  startLoad(): void {
    this.#docs = [];
    this.#byId.clear();
    this.#postings = new Map();
    this.#columns = new Columns();
    this.#dead = 0;
    this.#private = 0;
    this.#loading = new PostingBuilder();
  }

  appendLoaded(documents: Iterable<SearchDocument>): void {
    for (const d of documents) this.#append(d);
  }

  finishLoad(): void {
    if (this.#loading) this.#postings = this.#loading.build();
    this.#loading = undefined;
    this.#lexemes = [...this.#postings.keys()].sort();
    this.#setTitleOrder([...this.#byId.values()].sort(byTitle).map((d) => d.ord));
  }

  upsert(document: SearchDocument): void {
    this.remove(document.id);
    const doc = this.#append(document, true);
    const at = this.#titlePlace(doc);
    const ranks = this.#columns.titleRank;
    const before = at > 0 ? ranks[this.#titleOrder[at - 1]!]! : undefined;
    const after = at < this.#titleOrder.length ? ranks[this.#titleOrder[at]!]! : undefined;
    const rank =
      before === undefined ? (after ?? 0) - 1 : after === undefined ? before + 1 : (before + after) / 2;
    this.#titleOrder.splice(at, 0, doc.ord);
    if (rank === before || rank === after) {
      this.#setTitleOrder(this.#titleOrder); // no room left between the neighbours: renumber
      return;
    }
    ranks[doc.ord] = rank;
    const list = this.#cuisineList(this.#columns.cuisine[doc.ord]!);
    list.splice(rankPlace(list, ranks, rank), 0, doc.ord);
  }

  remove(id: string): void {
    const doc = this.#byId.get(id);
    if (!doc) return;
    const at = this.#titlePlace(doc);
    if (this.#titleOrder[at] === doc.ord) this.#titleOrder.splice(at, 1);
    const ranks = this.#columns.titleRank;
    const list = this.#cuisineList(this.#columns.cuisine[doc.ord]!);
    const inList = rankPlace(list, ranks, ranks[doc.ord]!);
    if (list[inList] === doc.ord) list.splice(inList, 1);
    this.#byId.delete(id);
    this.#docs[doc.ord] = undefined;
    this.#dead += 1;
    this.#removals += 1;
    if (this.#columns.shared[doc.ord] === 0) this.#private -= 1;
    // Not while a load is built: its entries hold the ordinals compaction would renumber.
    if (!this.#loading && this.#dead >= COMPACT_AFTER_DEAD && this.#dead * 4 >= this.#docs.length) {
      this.#compact();
    }
  }

  /**
   * The page of ids the viewer may see that match, and how many match in all. With terms: best
   * rank first (ties by title, then id); without: by title, then id.
   */
  search(
    query: IndexQuery,
    viewer: Viewer | undefined,
    page: { limit: number; offset: number },
  ): { hits: SearchHit[]; total: number } {
    const keep = this.#filter(query, viewer);
    if (!keep) return { hits: [], total: 0 };
    const all = this.#passesAll(query, viewer);
    if (query.terms === undefined) return this.#titlePage(query.cuisine, all ? undefined : keep, page);
    return this.#rankedPage(query.terms, keep, page, all);
  }

  #append(document: SearchDocument, indexLexemes = false): Doc {
    this.#generation += 1;
    const ord = this.#docs.length;
    const { id, title, ownerId } = document;
    // Cuisines and difficulties repeat across recipes: one string each, not one per row read.
    const shown = {
      ...document.shown,
      cuisine: this.#values.canonical(document.shown.cuisine),
      difficulty: this.#values.canonical(document.shown.difficulty),
    };
    const doc: Doc = { id, title, ownerId, ord, shown };
    this.#docs.push(doc);
    this.#byId.set(doc.id, doc);
    const c = this.#columns;
    c.ensure(ord + 1);
    c.shared[ord] = document.ownerId === null || document.isPublic ? 1 : 0;
    if (c.shared[ord] === 0) this.#private += 1;
    c.cuisine[ord] = this.#values.id(document.cuisine);
    c.difficulty[ord] = this.#values.id(document.difficulty);
    c.time[ord] = document.totalTime;
    c.fits[ord] = this.#tags.mask(document.fits);
    c.meals[ord] = this.#tags.mask(document.mealTypes);
    const loading = this.#loading;
    if (loading) forEachLexeme(document.vector, (lexeme, score) => loading.add(lexeme, ord, score));
    else forEachLexeme(document.vector, (lexeme, score) => this.#post(lexeme, ord, score, indexLexemes));
    return doc;
  }

  #post(lexeme: string, ord: number, score: number, indexLexemes: boolean): void {
    let posting = this.#postings.get(lexeme);
    if (!posting) {
      posting = { ords: [], scores: [] };
      this.#postings.set(lexeme, posting);
      if (indexLexemes) this.#lexemes.splice(lowerBound(this.#lexemes, lexeme), 0, lexeme);
    }
    const open = appendable(posting);
    open.ords.push(ord);
    open.scores.push(score);
  }

  /** Renumbers the live documents densely, dropping the dead from every posting. */
  #compact(): void {
    const renumbered = new Int32Array(this.#docs.length).fill(-1);
    const docs: Doc[] = [];
    const old = this.#columns;
    const columns = new Columns();
    columns.ensure(this.#byId.size);
    for (const doc of this.#docs) {
      if (!doc) continue;
      const from = doc.ord;
      const ord = docs.length;
      renumbered[from] = ord;
      docs.push({ ...doc, ord });
      columns.shared[ord] = old.shared[from]!;
      columns.cuisine[ord] = old.cuisine[from]!;
      columns.difficulty[ord] = old.difficulty[from]!;
      columns.time[ord] = old.time[from]!;
      columns.fits[ord] = old.fits[from]!;
      columns.meals[ord] = old.meals[from]!;
      columns.titleRank[ord] = old.titleRank[from]!;
    }
    for (const [lexeme, posting] of this.#postings) {
      const next = { ords: [] as number[], scores: [] as number[] };
      for (let i = 0; i < posting.ords.length; i++) {
        const ord = renumbered[posting.ords[i]!]!;
        if (ord < 0) continue;
        next.ords.push(ord);
        next.scores.push(posting.scores[i]!);
      }
      packed(next);
      if (next.ords.length > 0) this.#postings.set(lexeme, next);
      else this.#postings.delete(lexeme);
    }
    this.#docs = docs;
    for (const doc of docs) this.#byId.set(doc.id, doc);
    this.#columns = columns;
    this.#lexemes = this.#lexemes.filter((l) => this.#postings.has(l));
    this.#setTitleOrder(this.#titleOrder.map((ord) => renumbered[ord]!).filter((ord) => ord >= 0));
    this.#dead = 0;
    this.#generation += 1;
  }

  /** Title order from scratch: ranks 0, 1, 2, ... and the per-cuisine lists. */
  #setTitleOrder(order: number[]): void {
    this.#titleOrder = order;
    this.#titleOrderByCuisine = new Map();
    order.forEach((ord, rank) => {
      this.#columns.titleRank[ord] = rank;
      this.#cuisineList(this.#columns.cuisine[ord]!).push(ord);
    });
  }

  #cuisineList(cuisine: number): number[] {
    let list = this.#titleOrderByCuisine.get(cuisine);
    if (!list) this.#titleOrderByCuisine.set(cuisine, (list = []));
    return list;
  }

  /** The test a document must pass; undefined when none can (a value no document has). */
  #filter(q: IndexQuery, viewer: Viewer | undefined): ((ord: number) => boolean) | undefined {
    const c = this.#columns;
    const wanted = (value: string | undefined, interner: Interner) =>
      value === undefined ? -1 : (interner.known(value) ?? -2);
    const cuisine = wanted(q.cuisine, this.#values);
    const difficulty = wanted(q.difficulty, this.#values);
    const diets = q.dietary === undefined ? [] : typeof q.dietary === 'string' ? [q.dietary] : q.dietary;
    const fits = diets.map((d) => wanted(d, this.#tags));
    const meal = wanted(q.mealType, this.#tags);
    if (cuisine === -2 || difficulty === -2 || fits.includes(-2) || meal === -2) return undefined;
    if (fits.some((f) => f >= MAX_TAGS) || meal >= MAX_TAGS) return undefined;
    const fitBit = fits.reduce((bits, f) => bits | (1 << f), 0);
    const mealBit = meal < 0 ? 0 : 1 << meal;
    const maxTime = q.maxTime ?? Number.POSITIVE_INFINITY;
    const docs = this.#docs;
    const seesPrivate = viewer?.isAdmin === true;
    const ownerId = viewer?.id;
    return (ord) =>
      (cuisine < 0 || c.cuisine[ord] === cuisine) &&
      (difficulty < 0 || c.difficulty[ord] === difficulty) &&
      c.time[ord]! <= maxTime &&
      (c.fits[ord]! & fitBit) === fitBit &&
      (c.meals[ord]! & mealBit) === mealBit &&
      (c.shared[ord] === 1 || seesPrivate || (ownerId !== undefined && docs[ord]?.ownerId === ownerId));
  }

  /**
   * Whether every live document passes (no filter, and none the viewer may not see), so that a
   * page need not test each match: a shared index's plain word or listing costs its page, not its
   * thousands of matches.
   */
  #passesAll(q: IndexQuery, viewer: Viewer | undefined): boolean {
    const diets = q.dietary === undefined ? [] : [q.dietary].flat();
    const unfiltered =
      q.cuisine === undefined &&
      q.difficulty === undefined &&
      q.maxTime === undefined &&
      diets.length === 0 &&
      q.mealType === undefined;
    return unfiltered && (this.#private === 0 || viewer?.isAdmin === true);
  }

  #titlePlace(doc: Doc): number {
    let lo = 0;
    let hi = this.#titleOrder.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (byTitle(this.#docs[this.#titleOrder[mid]!]!, doc) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** `keep` undefined: every document passes (the title order holds only live ones). */
  #titlePage(
    cuisine: string | undefined,
    keep: ((ord: number) => boolean) | undefined,
    page: { limit: number; offset: number },
  ) {
    if (!keep && cuisine === undefined) {
      const ords = this.#titleOrder.slice(page.offset, page.offset + page.limit);
      return { hits: ords.map((ord) => hitOf(this.#docs[ord]!, 0)), total: this.#titleOrder.length };
    }
    const hits: SearchHit[] = [];
    let total = 0;
    const cuisineId = cuisine === undefined ? undefined : this.#values.known(cuisine);
    const order = cuisineId === undefined ? this.#titleOrder : this.#cuisineList(cuisineId);
    for (const ord of order) {
      if (keep && !keep(ord)) continue;
      if (total >= page.offset && hits.length < page.limit) hits.push(hitOf(this.#docs[ord]!, 0));
      total += 1;
    }
    return { hits, total };
  }

  /** The postings of a term: its lexeme, or every lexeme it is a prefix of. */
  #postingsOf(term: QueryTerm): Posting[] {
    if (!term.prefix) {
      const posting = this.#postings.get(term.lexeme);
      return posting ? [posting] : [];
    }
    const out: Posting[] = [];
    for (let i = lowerBound(this.#lexemes, term.lexeme); i < this.#lexemes.length; i++) {
      const lexeme = this.#lexemes[i]!;
      if (!lexeme.startsWith(term.lexeme)) break;
      out.push(this.#postings.get(lexeme)!);
    }
    return out;
  }

  /**
   * Rank: each word adds ts_rank's part of every lexeme it matches (several for a prefix), and
   * the sum is divided by the number of words — exactly ts_rank for one word; for several, its
   * frequency-and-weight formula without the proximity term.
   */
  #rankedPage(
    terms: readonly QueryTerm[],
    keep: (ord: number) => boolean,
    page: { limit: number; offset: number },
    all: boolean,
  ) {
    if (terms.length === 0) return { hits: [], total: 0 };
    this.#ensureScratch();
    const scores = this.#scores;
    if (terms.length === 1) return this.#wordPage(terms[0]!, all ? undefined : keep, page);
    const hits = this.#hits;
    const touched: number[] = [];
    terms.forEach((term, word) => {
      for (const { ords, scores: parts } of this.#postingsOf(term)) {
        for (let i = 0; i < ords.length; i++) {
          const ord = ords[i]!;
          const seen = hits[ord]!;
          if (seen === word) {
            if (word === 0) touched.push(ord);
            hits[ord] = word + 1;
          } else if (seen !== word + 1) continue;
          scores[ord] = Math.fround(scores[ord]! + parts[i]!);
        }
      }
    });
    const matches: number[] = [];
    for (const ord of touched) {
      if (hits[ord] === terms.length && this.#docs[ord] && keep(ord)) {
        matches.push(ord);
        scores[ord] = Math.fround(scores[ord]! / terms.length);
      }
      hits[ord] = 0;
    }
    const docs = this.#docs;
    const ranks = this.#columns.titleRank;
    const best = topOf(
      matches,
      page.offset + page.limit,
      (a, b) => scores[b]! - scores[a]! || ranks[a]! - ranks[b]!,
    );
    const pageHits = best.slice(page.offset).map((ord) => hitOf(docs[ord]!, scores[ord]!));
    for (const ord of touched) scores[ord] = 0;
    return { hits: pageHits, total: matches.length };
  }

  /**
   * #rankedPage for one word (the common case): its live matches in rank order are kept between
   * queries until a document is added, so a page is one pass that counts what passes the filter.
   */
  #wordPage(
    term: QueryTerm,
    keep: ((ord: number) => boolean) | undefined,
    page: { limit: number; offset: number },
  ) {
    const key = `${term.prefix ? '*' : '='}${term.lexeme}`;
    let order = this.#wordOrders.get(key);
    if (order?.generation !== this.#generation) {
      order = { generation: this.#generation, live: -1, liveAt: -1, ...this.#wordOrder(term) };
      this.#keepWordOrder(key, order);
    }
    const docs = this.#docs;
    const hits: SearchHit[] = [];
    let total = 0;
    const { ords, scores } = order;
    // Every live match passes: the page is read up to its end, the count kept until a removal.
    const known = !keep && order.liveAt === this.#removals;
    for (let i = 0; i < ords.length; i++) {
      const ord = ords[i]!;
      if (docs[ord] === undefined || (keep && !keep(ord))) continue;
      if (total >= page.offset && hits.length < page.limit) hits.push(hitOf(docs[ord], scores[i]!));
      else if (known && hits.length === page.limit) return { hits, total: order.live };
      total += 1;
    }
    if (!keep) {
      order.live = total;
      order.liveAt = this.#removals;
    }
    return { hits, total };
  }

  #keepWordOrder(key: string, order: WordOrder): void {
    const drop = (k: string) => {
      this.#wordOrdersSize -= this.#wordOrders.get(k)?.ords.length ?? 0;
      this.#wordOrders.delete(k);
    };
    drop(key);
    this.#wordOrders.set(key, order);
    this.#wordOrdersSize += order.ords.length;
    // Maps iterate in insertion order: the first key is the oldest.
    while (this.#wordOrdersSize > WORD_ORDER_BUDGET && this.#wordOrders.size > 1) {
      drop(this.#wordOrders.keys().next().value!);
    }
  }

  /** A word's live matches by rank (ts_rank, summed over a prefix's lexemes), then by title. */
  #wordOrder(term: QueryTerm): { ords: Int32Array; scores: Float32Array } {
    this.#ensureScratch();
    const scores = this.#scores;
    const seen = this.#hits;
    const matches: number[] = [];
    for (const { ords, scores: parts } of this.#postingsOf(term)) {
      for (let i = 0; i < ords.length; i++) {
        const ord = ords[i]!;
        if (this.#docs[ord] === undefined) continue;
        if (seen[ord] === 0) {
          seen[ord] = 1;
          matches.push(ord);
        }
        scores[ord] = Math.fround(scores[ord]! + parts[i]!);
      }
    }
    const ranks = this.#columns.titleRank;
    matches.sort((a, b) => scores[b]! - scores[a]! || ranks[a]! - ranks[b]!);
    // Scores are single-precision values (Math.fround), so a Float32Array holds them exactly.
    const ranked = Float32Array.from(matches, (ord) => scores[ord]!);
    for (const ord of matches) {
      seen[ord] = 0;
      scores[ord] = 0;
    }
    return { ords: Int32Array.from(matches), scores: ranked };
  }

  #ensureScratch(): void {
    if (this.#scores.length >= this.#docs.length) return;
    const size = Math.max(1024, this.#docs.length * 2);
    this.#scores = new Float64Array(size);
    this.#hits = new Uint8Array(size);
  }
}

/** A document as a search result (the database search's results too). */
export function hitOfDocument(document: SearchDocument, score: number): SearchHit {
  return { id: document.id, title: document.title, score, ...document.shown };
}

function hitOf(doc: Doc, score: number): SearchHit {
  return { id: doc.id, title: doc.title, score, ...doc.shown };
}

interface WordOrder {
  generation: number;
  /** Live matches when `liveAt` was the index's removal count (-1: not counted yet). */
  live: number;
  liveAt: number;
  ords: Int32Array;
  scores: Float32Array;
}

/** Where an ordinal of title rank `rank` stands in a list in title order. */
function rankPlace(list: readonly number[], ranks: Float64Array, rank: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ranks[list[mid]!]! < rank) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first `count` items in `order`, sorted: a full sort when that is most of them, else a heap. */
export function topOf<T>(items: T[], count: number, order: (a: T, b: T) => number): T[] {
  if (count <= 0) return [];
  if (count * 4 >= items.length) return items.sort(order).slice(0, count);
  // A heap of the best `count` so far with the worst of them on top.
  const heap: T[] = [];
  const worse = (i: number, j: number) => order(heap[i]!, heap[j]!) > 0;
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j]!, heap[i]!]);
  const down = (start: number) => {
    for (let i = start; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && worse(l, top)) top = l;
      if (r < heap.length && worse(r, top)) top = r;
      if (top === i) return;
      swap(i, top);
      i = top;
    }
  };
  for (const item of items) {
    if (heap.length < count) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0 && worse(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
    } else if (order(item, heap[0]!) < 0) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort(order);
}
