import { batchedReads } from '../../platform/db/batched-reads.ts';
import type { IngredientCatalog, IngredientInfo } from '../ingredients/contract.ts';
import { convertQuantity } from '../ingredients/units.ts';
import type { ShoppingNeed } from '../shopping/service.ts';
import { sameTerms, type MatchedPromotion, type MatchTerms, type StoresRepository } from './repository.ts';

/** What pricing needs from the shopping list (ShoppingService implements it). */
export interface ShoppingNeeds {
  listUnchecked(userId: string): Promise<ShoppingNeed[]>;
}

/**
 * Matching rule: an unchecked shopping item matches a live, still valid promotion when, for the
 * ingredient's name or one of its aliases (lower-cased), the pg_trgm score
 *   greatest(similarity(product, term), strict_word_similarity(term, product),
 *            strict_word_similarity(term, brand || ' ' || product))
 * reaches MATCH_THRESHOLD. strict_word_similarity finds a term as a whole word inside a longer
 * product name ("Milk" in "Whole Milk 1 gal", 1.0) and tolerates plurals ("tomatoes" 0.6,
 * "red onions" 0.625) without matching "egg" inside "eggplant" (0.3) or "butter" in "buttermilk"
 * (0.5, hence a threshold just above one half).
 *
 * Matches are resolved ahead of requests and stored (promotion_matches): when promotions go live
 * or change, against every ingredient matched so far; and when an ingredient is first priced, or
 * its name or aliases changed since, against every live promotion. Price requests only read them.
 */
export const MATCH_THRESHOLD = 0.55;

export interface StorePrice {
  storeName: string;
  storeId: string;
  price: number;
  discountedPrice: number;
  unit: string;
  validUntil: string;
  /** What the needed quantity costs at the promotion price (see costFor). */
  cost: number;
  /** The same at the regular price the flyer states for it. */
  regularCost: number;
}

export interface ItemPrices {
  ingredientName: string;
  prices: StorePrice[];
}

export interface Optimisation {
  singleStoreBest: { storeName: string | null; totalPrice: number; coveragePercent: number };
  multiStoreSplit: Array<{ storeName: string; items: string[]; subtotal: number }>;
  multiStoreTotal: number;
  savings: number;
  /** Per priced item: where the split buys it and why, and what it costs in the single-store option. */
  items: OptimisedItem[];
  /** Items no live promotion prices: left out of both totals. */
  unpriced: string[];
}

export interface OptimisedItem {
  ingredientName: string;
  storeName: string;
  cost: number;
  reason: string;
  singleStore: { cost: number; basis: 'promotion' | 'regular_price' };
}

const PIECE_WORDS = /^(?:stück|stk|st|each|ea|pcs?|pieces?|piece)$/i;
const RATE_PREFIX = /^(?:per|pro|je|\/)\s*/i;
const AMOUNT_UNIT = /(\d+(?:[.,]\d+)?)?\s*([a-zäöüß]+)\.?\s*$/i;

interface PromotionMeasure {
  kind: 'rate' | 'pack';
  amount: number;
  unit: string;
}

/**
 * How a promotion's unit text is read for pricing:
 * - a rate: "per kg", "/lb", "je 100 g", "each", or a bare unit word ("kg") — the price is per that
 *   measure, so the cost is price × needed quantity in that measure;
 * - a pack: "1 Sack (10Kg)" (the size in brackets), "500 g", "3 Stück" — whole packs are bought,
 *   so the cost is price × ceil(needed / pack size);
 * - anything else, or a quantity that cannot be converted (e.g. pieces to kg without a piece
 *   weight): the price once.
 */
export function measureOf(unitText: string): PromotionMeasure | undefined {
  const text = unitText.trim();
  if (!text) return undefined;
  if (/^each$/i.test(text)) return { kind: 'rate', amount: 1, unit: 'piece' };
  const rate = RATE_PREFIX.test(text);
  const inBrackets = /\(([^()]+)\)/.exec(text)?.[1];
  const match = AMOUNT_UNIT.exec(inBrackets ?? text.replace(RATE_PREFIX, ''));
  if (!match) return undefined;
  const unit = PIECE_WORDS.test(match[2]!) ? 'piece' : match[2]!.toLowerCase();
  const amount = match[1] ? Number(match[1].replace(',', '.')) : 1;
  if (!(amount > 0)) return undefined;
  return { kind: rate || !match[1] ? 'rate' : 'pack', amount, unit };
}

export function costFor(
  need: { quantity: number; unit: string },
  promotion: { discounted_price: number; unit: string },
  ingredient: IngredientInfo | undefined,
): number {
  return pricer(need, promotion.unit, ingredient)(promotion.discounted_price);
}

/** costFor for one need and one unit text, as a function of the price (read the unit once). */
function pricer(
  need: { quantity: number; unit: string },
  unitText: string,
  ingredient: IngredientInfo | undefined,
): (price: number) => number {
  const measure = measureOf(unitText);
  if (!measure || !(need.quantity > 0)) return round2;
  const needed = convertQuantity(need.quantity, need.unit, measure.unit, ingredient);
  if (needed === undefined || !(needed > 0)) return round2;
  const units = needed / measure.amount;
  return measure.kind === 'rate'
    ? (price) => round2(price * units)
    : (price) => round2(price * Math.ceil(units - 1e-9));
}

/** The one key of the promotions version (every store's promotions together). */
const PROMOTIONS = 'all';

/** Users whose last prices are kept (about 20 KB each for a 100-item list). */
const PRICES_CACHE_USERS = 500;

export class PricingService {
  readonly #repo: StoresRepository;
  readonly #shopping: ShoppingNeeds;
  readonly #catalog: IngredientCatalog;
  readonly #today: () => string;
  /**
   * Each user's last prices with what they were computed from: the unchecked items, the
   * ingredients' match terms, the promotions version and the day. Any change to one of those is a
   * miss, so a hit answers what computing again would (and every instance reads the versions from
   * the database).
   */
  readonly #recent = new Map<string, { key: string; prices: ItemPrices[]; optimised?: Optimisation }>();
  /** The promotions version, read once for the requests that arrive together. */
  readonly #promotionsVersion = batchedReads(
    async () => new Map([[PROMOTIONS, await this.#repo.promotionsVersion()]]),
  );

  constructor(
    repo: StoresRepository,
    shopping: ShoppingNeeds,
    catalog: IngredientCatalog,
    today: () => string,
  ) {
    this.#repo = repo;
    this.#shopping = shopping;
    this.#catalog = catalog;
    this.#today = today;
  }

  /** Per unchecked item, the best matching live promotion of each store, cheapest first. */
  async prices(userId: string): Promise<ItemPrices[]> {
    const [needs, version] = await Promise.all([
      this.#shopping.listUnchecked(userId),
      this.#promotionsVersion(PROMOTIONS),
    ]);
    const ingredients = await this.#catalog.getMany(needs.map((n) => n.ingredientId));
    const key = JSON.stringify([
      version,
      this.#today(),
      needs.map((n) => [n.ingredientId, n.name, n.quantity, n.unit]),
      [...ingredients.values()].map((i) => matchTerms(i).terms),
    ]);
    const recent = this.#recent.get(userId);
    if (recent?.key === key) return recent.prices;
    const matches = await this.#matchesOf([...ingredients.values()]);
    const prices = needs.map((need) => ({
      ingredientName: need.name,
      prices: bestPerStore(matches.get(need.ingredientId) ?? [], need, ingredients.get(need.ingredientId)),
    }));
    this.#remember(userId, key, prices);
    return prices;
  }

  #remember(userId: string, key: string, prices: ItemPrices[]): void {
    this.#recent.delete(userId); // re-inserted last: the map's order is the eviction order
    this.#recent.set(userId, { key, prices });
    if (this.#recent.size > PRICES_CACHE_USERS) this.#recent.delete(this.#recent.keys().next().value!);
  }

  /**
   * The stored matches of the ingredients, read with the terms they were resolved with; those
   * resolved with other terms than the ingredients' current ones (or never) are resolved first
   * (once), then read again.
   */
  async #matchesOf(ingredients: readonly IngredientInfo[]): Promise<Map<number, MatchedPromotion[]>> {
    const wanted = ingredients.map(matchTerms);
    const ids = wanted.map((w) => w.ingredientId);
    const today = this.#today();
    let state = await this.#repo.matchState(ids, today);
    const stale = wanted.filter((w) => !sameTerms(state.get(w.ingredientId)?.terms, w.terms));
    if (stale.length > 0) {
      await this.#repo.matchIngredients(stale, { today, threshold: MATCH_THRESHOLD });
      state = await this.#repo.matchState(ids, today);
    }
    return new Map([...state].map(([id, s]) => [id, s.matches]));
  }

  /**
   * single_store_best: the store covering the most items, then the lowest total for them;
   * multi_store_split: each item at the store where its needed quantity costs least; both priced
   * over the same basket (see optimise); savings = max(0, single − split), never negative.
   */
  async optimize(userId: string): Promise<Optimisation> {
    const prices = await this.prices(userId);
    const recent = this.#recent.get(userId);
    // Computed once per prices kept: asking again with nothing changed costs the reads only.
    if (recent?.prices === prices) return (recent.optimised ??= optimise(prices));
    return optimise(prices);
  }
}

function bestPerStore(
  matches: MatchedPromotion[],
  need: { quantity: number; unit: string },
  ingredient: IngredientInfo | undefined,
): StorePrice[] {
  const pricers = new Map<string, (price: number) => number>();
  const best = new Map<string, { score: number; price: StorePrice }>();
  for (const match of matches) {
    let priceOf = pricers.get(match.unit);
    if (!priceOf) pricers.set(match.unit, (priceOf = pricer(need, match.unit, ingredient)));
    const cost = priceOf(match.discounted_price);
    const current = best.get(match.store_id);
    const better =
      !current ||
      match.score > current.score + 1e-9 ||
      (Math.abs(match.score - current.score) <= 1e-9 && cost < current.price.cost);
    if (!better) continue;
    const price: StorePrice = {
      storeId: match.store_id,
      storeName: match.store_name,
      price: match.original_price,
      discountedPrice: match.discounted_price,
      unit: match.unit,
      validUntil: match.valid_until,
      cost,
      regularCost: priceOf(Math.max(match.original_price, match.discounted_price)),
    };
    best.set(match.store_id, { score: match.score, price });
  }
  return [...best.values()]
    .map((b) => b.price)
    .sort((a, b) => a.cost - b.cost || a.storeName.localeCompare(b.storeName));
}

/**
 * Both options over the same basket: every item some live promotion prices. The single store pays
 * its promotion price where it has one and, for an item it has no offer for, the lowest regular
 * price the flyers state for that item (what it costs without a promotion). Items no promotion
 * prices are listed as unpriced and left out of both totals. savings = single − split, never
 * negative.
 */
export function optimise(items: ItemPrices[]): Optimisation {
  const priced = items.filter((i) => i.prices.length > 0);
  const stores = new Map<string, { id: string; name: string; covered: number; total: number }>();
  for (const item of priced) {
    for (const price of item.prices) {
      const store = stores.get(price.storeId) ?? {
        id: price.storeId,
        name: price.storeName,
        covered: 0,
        total: 0,
      };
      store.covered += 1;
      store.total += price.cost;
      stores.set(price.storeId, store);
    }
  }
  const ranked = [...stores.values()].sort(
    (a, b) => b.covered - a.covered || a.total - b.total || a.name.localeCompare(b.name),
  );
  const top = ranked[0];
  const split = new Map<string, { storeName: string; items: string[]; subtotal: number }>();
  const explained: OptimisedItem[] = [];
  let singleTotal = 0;
  for (const item of priced) {
    const cheapest = item.prices[0]!; // prices are sorted by cost
    const entry = split.get(cheapest.storeId) ?? { storeName: cheapest.storeName, items: [], subtotal: 0 };
    entry.items.push(item.ingredientName);
    entry.subtotal += cheapest.cost;
    split.set(cheapest.storeId, entry);
    const atTop = item.prices.find((p) => p.storeId === top?.id);
    const single = atTop
      ? { cost: atTop.cost, basis: 'promotion' as const }
      : { cost: Math.min(...item.prices.map((p) => p.regularCost)), basis: 'regular_price' as const };
    singleTotal += single.cost;
    explained.push({
      ingredientName: item.ingredientName,
      storeName: cheapest.storeName,
      cost: round2(cheapest.cost),
      reason:
        item.prices.length === 1
          ? 'the only offer'
          : `the cheapest of ${item.prices.length} offers (next: ${item.prices[1]!.storeName} ${round2(item.prices[1]!.cost).toFixed(2)})`,
      singleStore: { cost: round2(single.cost), basis: single.basis },
    });
  }
  const singleStoreBest = {
    storeName: top?.name ?? null,
    totalPrice: round2(top ? singleTotal : 0),
    coveragePercent: top && items.length ? Math.round((top.covered / items.length) * 1000) / 10 : 0,
  };
  const multiStoreSplit = [...split.values()]
    .map((s) => ({ ...s, subtotal: round2(s.subtotal) }))
    .sort((a, b) => a.storeName.localeCompare(b.storeName));
  const multiStoreTotal = round2(multiStoreSplit.reduce((sum, s) => sum + s.subtotal, 0));
  return {
    singleStoreBest,
    multiStoreSplit,
    multiStoreTotal,
    savings: round2(Math.max(0, singleStoreBest.totalPrice - multiStoreTotal)),
    items: explained,
    unpriced: items.filter((i) => i.prices.length === 0).map((i) => i.ingredientName),
  };
}

/** The terms an ingredient is matched by: its name and aliases, lower-cased, unique, sorted. */
export function matchTerms(ingredient: IngredientInfo): MatchTerms {
  const terms = [ingredient.name, ...ingredient.aliases].map((t) => t.toLowerCase().trim()).filter(Boolean);
  return { ingredientId: ingredient.id, terms: [...new Set(terms)].sort() };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
