import { fold } from './hunspell.ts';
import { lineAround, MAX_CANDIDATES, MAX_NAME_WORDS } from './name-lines.ts';
import type { OcrWord } from './ocr.ts';
import type { PreferredSpellings } from './spelling.ts';

/** A word OCR was this unsure of, and that no dictionary step settled, may be garbled. */
const UNSURE = 0.8;
/** A head word read at least this surely. */
const SURE_HEAD = 0.6;
/** A capital after a small letter: OCR's reading of a display face's "m", "ni", "lh" ("NaiNca"). */
const INNER_CAPITAL = /\p{Ll}\p{Lu}/u;
/** A quote or apostrophe against a letter ("redgfio'", "e'hesa"): a stroke or a speck read as one. */
const QUOTE_IN_WORD = /\p{L}['’"`´]|['’"`´]\p{L}/u;

/**
 * Portuguese, Spanish and French names head with the food and qualify it after ("Banana Nanica",
 * "Leche semidesnatada"). A qualifier OCR garbled past any dictionary's mending ("Banana NaiNca",
 * "Arroz redgfio'") makes the whole name wrong, where the food before it still names the product:
 * an unsure word shaped as no word is (a capital inside it; a quote inside it, in a language that
 * writes none) is dropped from a short name line a food read surely heads. Words read surely, words
 * of a line with figures (a pack's size, a price) and lines no food heads are left as read.
 */
export function withoutGarbledQualifiers(
  words: readonly OcrWord[],
  foods: PreferredSpellings,
  writesApostrophes: boolean,
): OcrWord[] {
  let weighed = 0;
  const dropped = new Set<OcrWord>();
  for (const word of words) {
    if (weighed >= MAX_CANDIDATES) break;
    if (!isGarbled(word, writesApostrophes)) continue;
    weighed += 1;
    const line = lineAround(word, words);
    if (line.length > MAX_NAME_WORDS || line.some((w) => /\p{N}/u.test(w.text))) continue;
    const headed = line.some(
      (w) => w.x + w.width <= word.x && w.confidence >= SURE_HEAD && isFood(w.text, foods),
    );
    if (headed) dropped.add(word);
  }
  return dropped.size > 0 ? words.filter((w) => !dropped.has(w)) : [...words];
}

function isGarbled(word: OcrWord, writesApostrophes: boolean): boolean {
  if (word.confidence >= UNSURE || !/^\p{Script=Latin}/u.test(word.text)) return false;
  return INNER_CAPITAL.test(word.text) || (!writesApostrophes && QUOTE_IN_WORD.test(word.text));
}

function isFood(text: string, foods: PreferredSpellings): boolean {
  const letters = /^\p{Script=Latin}{3,}$/u.exec(text.replace(/[^\p{L}]+$/u, ''))?.[0];
  return letters !== undefined && foods.spelling(fold(letters)) !== undefined;
}
