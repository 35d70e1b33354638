import { type ArabicScriptFoods, arabicScriptKey, foodWithLostMark } from './arabic-spelling.ts';
import { lineAround, MAX_CANDIDATES, MAX_NAME_WORDS } from './name-lines.ts';
import type { OcrWord } from './ocr.ts';

/**
 * A Persian word the dictionary holds as read can still be a food whose mark OCR lost: "جای"
 * (a place) for "چای" (tea), "بسته" (a pack) for "پسته" (pistachios). Which one the flyer printed
 * shows from where the word stands: heading (rightmost) a short line with no digit, it names a
 * product; in a sentence or beside a quantity ("بسته ۵۰۰ گرمی") it is the word as read.
 */
export function withFoodsHeadingNames(words: readonly OcrWord[], foods: ArabicScriptFoods): OcrWord[] {
  let weighed = 0;
  return words.map((word) => {
    if (weighed >= MAX_CANDIDATES || !/^[\p{Script=Arabic}\u200c]+$/u.test(word.text)) return word;
    const food = foodWithLostMark(word.text, foods);
    if (!food) return word;
    weighed += 1;
    const line = lineAround(word, words);
    const headsIt = line.every((w) => w.x + w.width <= word.x + word.width);
    const nameLike = line.length <= MAX_NAME_WORDS && !line.some((w) => /[\p{N}]/u.test(w.text));
    return headsIt && nameLike
      ? { ...word, text: food, confidence: Math.max(word.confidence, FOOD_NAME) }
      : word;
  });
}

const FOOD_NAME = 0.7;

/** OCR's doubt about a word it could not read at all (a photo's shape across it): ~0. */
const UNREAD = 0.2;
/** A word read surely. */
const SURE = 0.6;

/**
 * An Arabic or Persian name heads with its noun, what the product is ("چای ایرانی": tea, Iranian),
 * and qualifies it after, on its left. A qualifier OCR could not read at all ("چای ابرلظ", its
 * confidence ~0, no food a letter from it) is dropped when a food read surely heads the line: the
 * head still names the product, where the garbled word would make the whole name wrong. A word
 * that is itself a food, or a line headed by no food, is left as read.
 */
export function withoutUnreadQualifiers(words: readonly OcrWord[], foods: ArabicScriptFoods): OcrWord[] {
  let weighed = 0;
  const dropped = new Set<OcrWord>();
  for (const word of words) {
    if (weighed >= MAX_CANDIDATES) break;
    if (word.confidence >= UNREAD || !/^[\p{Script=Arabic}\u200c]+$/u.test(word.text)) continue;
    weighed += 1;
    if (foods.spelling(word.text)) continue;
    const line = lineAround(word, words);
    if (line.length > MAX_NAME_WORDS || line.some((w) => /[\p{N}]/u.test(w.text))) continue;
    const head = line.reduce((a, b) => (b.x + b.width > a.x + a.width ? b : a));
    if (head !== word && head.confidence >= SURE && isFoodAsRead(head.text, foods)) dropped.add(word);
  }
  return dropped.size > 0 ? words.filter((w) => !dropped.has(w)) : [...words];
}

function isFoodAsRead(text: string, foods: ArabicScriptFoods): boolean {
  const food = foods.spelling(text);
  return food !== undefined && arabicScriptKey(food) === arabicScriptKey(text);
}
