import type { ParsedOffer } from '../../src/modules/stores/extraction/layout.ts';

/**
 * The scoring rule of the labelled flyer sets (shared/data/flyers-real/README.md): offers on the
 * labelled pages are matched one to one, greedily in label order, on page, price within 0.01 and a
 * loosely equal name.
 */
export interface LabelledOffer {
  page: number;
  product: string;
  product_en?: string;
  brand?: string;
  price: number;
  regular_price?: number | null;
  unit?: string;
  valid_until?: string;
}

export interface FlyerLabels {
  file: string;
  validity?: { valid_from?: string | null; valid_until?: string | null };
  pages_labelled: number[];
  offers: LabelledOffer[];
  negative_control?: boolean;
}

export interface ExtractedOfferForScoring {
  page: number;
  product: string;
  brand: string;
  price: number;
  regularPrice: number | null;
  unit: string;
  validUntil: string;
  /** The reader's confidence (shown by --show). */
  confidence?: number;
}

/** An offer as the reader gives it, on `page`, in the scoring's terms (a regular price only when higher). */
export function forScoring(page: number, offer: Omit<ParsedOffer, 'box'>): ExtractedOfferForScoring {
  const regular = offer.originalPrice > offer.discountedPrice + 0.001 ? offer.originalPrice : null;
  return {
    page,
    product: offer.product,
    brand: offer.brand,
    price: offer.discountedPrice,
    regularPrice: regular,
    unit: offer.unit,
    validUntil: offer.validUntil ?? '',
    confidence: offer.confidence,
  };
}

export interface FlyerScore {
  extracted: number;
  labelled: number;
  matched: number;
  precision: number;
  recall: number;
  /** Pairs on page and name whose price is right, over such pairs. */
  priceAccuracy: number;
  pricePairs: number;
  /** Matched offers whose regular price is right (a null label accepts anything). */
  regularAccuracy: number;
  /** undefined when the labels print no validity. */
  validityRight: boolean | undefined;
  /** Offers priced over 10x the flyer's median whose unit does not explain it. */
  outliers: number;
}

export function normaliseName(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const tokensOf = (name: string) =>
  new Set(
    normaliseName(name)
      .split(' ')
      .filter((t) => t.length >= 2),
  );

/** One name contains the other, or ≥ 60 % of the shorter one's tokens are shared. */
export function namesMatch(a: string, b: string): boolean {
  const na = normaliseName(a);
  const nb = normaliseName(b);
  if (!na || !nb) return false;
  if (na.includes(nb) || nb.includes(na)) return true;
  const ta = tokensOf(a);
  const tb = tokensOf(b);
  const [shorter, longer] = ta.size <= tb.size ? [ta, tb] : [tb, ta];
  if (shorter.size === 0) return false;
  let shared = 0;
  for (const t of shorter) if (longer.has(t)) shared += 1;
  return shared / shorter.size >= 0.6;
}

function offerNameMatches(offer: ExtractedOfferForScoring, label: LabelledOffer): boolean {
  const candidates = [offer.product, `${offer.brand} ${offer.product}`.trim()];
  const targets = [label.product, label.product_en].filter((t): t is string => Boolean(t));
  return candidates.some((c) => targets.some((t) => namesMatch(c, t)));
}

const samePrice = (a: number, b: number) => Math.abs(a - b) <= 0.01 + 1e-9;

function greedyPairs(
  offers: ExtractedOfferForScoring[],
  labels: LabelledOffer[],
  fits: (offer: ExtractedOfferForScoring, label: LabelledOffer) => boolean,
): [ExtractedOfferForScoring, LabelledOffer][] {
  const used = new Set<number>();
  const pairs: [ExtractedOfferForScoring, LabelledOffer][] = [];
  for (const label of labels) {
    const index = offers.findIndex((o, i) => !used.has(i) && o.page === label.page && fits(o, label));
    if (index === -1) continue;
    used.add(index);
    pairs.push([offers[index]!, label]);
  }
  return pairs;
}

/** Units that explain a high price: bulk packs and per-weight prices of big pieces. */
const BULK_UNIT = /\b(kg|kilo|\d+\s*(x|×)|sack|sac|case|caixa|fardo|pack|box|lb|cx)\b/i;

export function countOutliers(offers: ExtractedOfferForScoring[]): number {
  if (offers.length < 3) return 0;
  const prices = offers.map((o) => o.price).sort((a, b) => a - b);
  const median = prices[Math.floor(prices.length / 2)]!;
  // A bulk unit explains a higher price, not one over 100× the median (the production rule too).
  return offers.filter((o) => o.price > 10 * median && (!BULK_UNIT.test(o.unit) || o.price > 100 * median))
    .length;
}

/** The extracted offers of labelled pages paired with the labels they match (page, price, name). */
export function matchOffers(
  labels: FlyerLabels,
  extracted: ExtractedOfferForScoring[],
): [ExtractedOfferForScoring, LabelledOffer][] {
  return greedyPairs(
    extracted,
    labels.offers,
    (o, l) => samePrice(o.price, l.price) && offerNameMatches(o, l),
  );
}

export function scoreFlyer(labels: FlyerLabels, extractedAll: ExtractedOfferForScoring[]): FlyerScore {
  const pages = new Set(labels.pages_labelled);
  const extracted = extractedAll.filter((o) => pages.has(o.page));
  const matched = matchOffers(labels, extracted);
  const namePairs = greedyPairs(extracted, labels.offers, offerNameMatches);
  const rightPrices = namePairs.filter(([o, l]) => samePrice(o.price, l.price)).length;
  const rightRegular = matched.filter(
    ([o, l]) =>
      l.regular_price == null || (o.regularPrice !== null && samePrice(o.regularPrice, l.regular_price)),
  ).length;
  const printed = labels.validity?.valid_until ?? undefined;
  const validities = new Set(extracted.map((o) => o.validUntil));
  return {
    extracted: extracted.length,
    labelled: labels.offers.length,
    matched: matched.length,
    precision:
      extracted.length === 0 ? (labels.offers.length === 0 ? 1 : 0) : matched.length / extracted.length,
    recall: labels.offers.length === 0 ? 1 : matched.length / labels.offers.length,
    priceAccuracy: namePairs.length === 0 ? 0 : rightPrices / namePairs.length,
    pricePairs: namePairs.length,
    regularAccuracy: matched.length === 0 ? 0 : rightRegular / matched.length,
    validityRight: printed
      ? extracted.length > 0 && [...validities].every((v) => v === printed || perOfferDate(labels, v))
      : undefined,
    outliers: countOutliers(extracted),
  };
}

const perOfferDate = (labels: FlyerLabels, date: string) => labels.offers.some((o) => o.valid_until === date);
