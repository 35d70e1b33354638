import { inArabicForms } from '../../../providers/ocr/arabic-letters.ts';
import type { LayoutItem } from './layout.ts';
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
export function withMisreadCurrencies(items: readonly LayoutItem[]): LayoutItem[] {
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
  const gap = amount.x - (word.x + word.width);
  const shared = Math.min(amount.y + amount.height, word.y + word.height) - Math.max(amount.y, word.y);
  return (
    gap >= -0.2 * word.height &&
    gap <= MAX_GAP * word.height &&
    shared >= MIN_SHARED_HEIGHT * Math.min(amount.height, word.height)
  );
}
