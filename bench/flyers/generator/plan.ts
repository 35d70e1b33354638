import type { Locale, ProductSpec } from './locales.ts';

/** How an offer's price is printed on its tile. */
export type PriceStyle = 'big' | 'member' | 'was' | 'save' | 'multibuy' | 'percent';

export interface PlannedOffer {
  product: ProductSpec;
  style: PriceStyle;
  /** The offer price of one item (what the label holds). */
  price: number;
  /** Member-less, "was" or struck price when printed. */
  regular: number | null;
  save: number | null;
  multibuy: { count: number; total: number } | null;
  unitLabel: string;
}

/** A small seeded generator (mulberry32): the same seed draws the same flyers. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Prices as shops print them: mostly ending in 9, some in 5 or 0. */
function shopPrice(random: () => number, min: number, max: number): number {
  const raw = min + random() * (max - min);
  const ending = pick(random, [0.99, 0.99, 0.49, 0.79, 0.29, 0.95, 0.5]);
  const whole = Math.floor(raw);
  return round2(Math.max(0.29, whole + ending > max + 1 ? whole - 1 + ending : whole + ending));
}

const STYLES: PriceStyle[] = ['big', 'big', 'big', 'member', 'was', 'save', 'multibuy', 'percent'];

export function planOffer(random: () => number, locale: Locale, product: ProductSpec): PlannedOffer {
  const style = pick(random, STYLES);
  const unitLabel =
    product.sold === 'weight'
      ? locale.weight.label
      : product.sold === 'each'
        ? locale.each.label
        : product.sold;
  const base = shopPrice(random, product.min, product.max);
  const offer: PlannedOffer = {
    product,
    style,
    price: base,
    regular: null,
    save: null,
    multibuy: null,
    unitLabel,
  };
  if (style === 'member' || style === 'was' || style === 'percent') {
    offer.regular = round2(base + Math.max(0.3, Math.round(base * (0.15 + random() * 0.35) * 10) / 10));
    if (style === 'percent') {
      // "-25 %": the printed percentage decides the price, as it does in the shop.
      const percent = pick(random, [10, 15, 20, 25, 30, 40, 50]);
      offer.price = round2(offer.regular * (1 - percent / 100));
      offer.save = percent;
    }
  } else if (style === 'save') {
    offer.save = round2(Math.max(0.5, Math.round(base * (0.2 + random() * 0.3) * 2) / 2));
  } else if (style === 'multibuy' && product.sold !== 'weight') {
    const count = pick(random, [2, 2, 3, 4]);
    const total = Math.max(1, Math.round(base * count * 0.9));
    offer.multibuy = { count, total };
    offer.price = round2(total / count);
  } else if (style === 'multibuy') {
    offer.style = 'big';
  }
  return offer;
}
