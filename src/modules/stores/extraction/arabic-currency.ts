import { inArabicForms } from '../../../providers/ocr/arabic-letters.ts';
import { boxAround, type LayoutItem } from './layout.ts';
import { ARABIC_SCRIPT_CURRENCY_WORDS, isArabicScriptCurrency } from './prices.ts';

const ARABIC_WORD = /^\p{Script=Arabic}{4,}$/u;
const AMOUNT = /^\p{Nd}{1,4}(?:[.,]\p{Nd}{1,2})?$/u;
/** The amount starts within this many of the word's heights after it (a space, not a column). */
const MAX_GAP = 1.5;
/** The two share at least this much of the lower one's height: one line. */
const MIN_SHARED_HEIGHT = 0.5;

/**
 * OCR of display type misreads a letter of an Arabic-script currency word ("درهم" read "درجم"). A
 * whole amount needs its currency to be a price ("٢ حبة ٨ درهم": 2 for 8; two decimals are a price
 * without one), so the multi-buy was lost. A word one letter from exactly one currency word, right
 * before an amount in reading order (on the page, just left of it on its line), is that currency.
 * A word anywhere else is left as read.
 */
export function withMisreadCurrencies(read: readonly LayoutItem[]): LayoutItem[] {
  const items = withSplitCurrenciesJoined(read);
  // Found once: a hostile page's thousands of near-currency words each look at amounts only.
  let amounts: LayoutItem[] | undefined;
  return items.map((item) => {
    const text = item.text.trim();
    if (!ARABIC_WORD.test(text) || isArabicScriptCurrency(text)) return item;
    const currency = onlyLetterAway(text);
    if (!currency) return item;
    amounts ??= items.filter((other) => AMOUNT.test(other.text.trim()));
    return amounts.some((amount) => isAmountAfter(amount, item)) ? { ...item, text: currency } : item;
  });
}

/** The one currency word spelt like `text` but for one letter (its Arabic and Persian forms are one). */
function onlyLetterAway(text: string): string | undefined {
  const letters = [...text];
  const near = ARABIC_SCRIPT_CURRENCY_WORDS.filter((currency) => {
    const other = [...currency];
    return other.length === letters.length && other.filter((letter, i) => letter !== letters[i]).length === 1;
  });
  return new Set(near.map(inArabicForms)).size === 1 ? near[0] : undefined;
}

/** `amount` is on `word`'s line, just right of it (the currency follows its amount). */
function isAmountAfter(amount: LayoutItem, word: LayoutItem): boolean {
  return followsOnLine(word, amount, MAX_GAP * word.height, word.height);
}

/**
 * `right` starts where `left` ends (overlapping by a fifth of `height` at most, `maxGap` apart at
 * most), the two sharing at least half the lower one's height: one line.
 */
function followsOnLine(left: LayoutItem, right: LayoutItem, maxGap: number, height: number): boolean {
  const gap = right.x - (left.x + left.width);
  const shared = Math.min(left.y + left.height, right.y + right.height) - Math.max(left.y, right.y);
  return (
    gap >= -0.2 * height && gap <= maxGap && shared >= MIN_SHARED_HEIGHT * Math.min(left.height, right.height)
  );
}

const FRAGMENT = /^\p{Script=Arabic}{1,4}$/u;
/** A hostile page's fragments are many: this many are looked at a page. */
const MAX_FRAGMENTS = 200;
/** Two pieces of one word stand closer than a space: this share of their height at most. */
const MAX_PIECE_GAP = 0.5;

/**
 * OCR of display type splits an Arabic-script currency word in two ("درهم" read "هم" "در", or "رهم"
 * "د"), and each piece then reads as a word of the product's name ("هم در" at 4.41): two pieces on
 * one line, side by side, that spell a currency in reading order (right to left) and stand just
 * before an amount are that currency, one word over both boxes.
 */
function withSplitCurrenciesJoined(items: readonly LayoutItem[]): readonly LayoutItem[] {
  const fragments = items.filter((item) => FRAGMENT.test(item.text.trim())).slice(0, MAX_FRAGMENTS);
  if (fragments.length < 2) return items;
  let amounts: LayoutItem[] | undefined;
  const joined = new Map<LayoutItem, LayoutItem>();
  const dropped = new Set<LayoutItem>();
  for (const left of fragments) {
    if (joined.has(left) || dropped.has(left)) continue;
    for (const right of fragments) {
      if (right === left || joined.has(right) || dropped.has(right) || !areNeighbours(left, right)) continue;
      const spelt = right.text.trim() + left.text.trim();
      if (!isArabicScriptCurrency(spelt) && !onlyLetterAway(spelt)) continue;
      const word = spanning(left, right, spelt);
      amounts ??= items.filter((other) => AMOUNT.test(other.text.trim()));
      if (!amounts.some((amount) => isAmountAfter(amount, word))) continue;
      joined.set(left, word);
      dropped.add(right);
      break;
    }
  }
  if (joined.size === 0) return items;
  return items.flatMap((item) => (dropped.has(item) ? [] : [joined.get(item) ?? item]));
}

/** `right` starts where `left` ends, less than a space apart, on one line. */
function areNeighbours(left: LayoutItem, right: LayoutItem): boolean {
  const height = Math.max(left.height, right.height);
  return followsOnLine(left, right, MAX_PIECE_GAP * height, height);
}

/** One word over both pieces' boxes, as sure as the less sure piece. */
function spanning(left: LayoutItem, right: LayoutItem, text: string): LayoutItem {
  const confidence = Math.min(left.confidence ?? 1, right.confidence ?? 1);
  return { ...left, text, ...boxAround(left, right), confidence };
}
