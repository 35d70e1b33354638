import type { OcrWord } from './ocr.ts';

/** A name line's words stand closer than this many of their height apart. */
const WORD_GAP = 1.5;
/** Longer lines are sentences, not a product's name. */
export const MAX_NAME_WORDS = 4;
/** A hostile picture's thousands of words: only this many are weighed a page. */
export const MAX_CANDIDATES = 100;

/** The words on `word`'s line that follow one another from it at most WORD_GAP heights apart. */
export function lineAround(word: OcrWord, words: readonly OcrWord[]): OcrWord[] {
  const level = words.filter((w) => sameLevel(w, word));
  const line = [word];
  for (let grown = true; grown && line.length <= MAX_NAME_WORDS;) {
    grown = false;
    for (const w of level) {
      if (
        !line.includes(w) &&
        line.some((n) => gapBetween(n, w) <= WORD_GAP * Math.max(n.height, w.height))
      ) {
        line.push(w);
        grown = true;
      }
    }
  }
  return line;
}

/** Each word's middle lies within the other's height. */
function sameLevel(a: OcrWord, b: OcrWord): boolean {
  const within = (w: OcrWord, y: number) => y >= w.y && y <= w.y + w.height;
  return within(a, b.y + b.height / 2) && within(b, a.y + a.height / 2);
}

function gapBetween(a: OcrWord, b: OcrWord): number {
  return Math.max(0, Math.max(a.x, b.x) - Math.min(a.x + a.width, b.x + b.width));
}
