import type { OcrWord } from './ocr.ts';

/** OCR's confidence from which a word counts as read surely. */
export const CONFIDENT = 0.7;

type Read = Pick<OcrWord, 'text' | 'confidence'>;

/** Letters (any script) in the words. */
export function lettersIn(words: readonly Read[]): number {
  return words.reduce((sum, w) => sum + (w.text.match(/\p{L}/gu) ?? []).length, 0);
}

/** Letters in the words read surely: how much of a reading is text rather than noise. */
export function confidentLetters(words: readonly Read[]): number {
  return lettersIn(words.filter((w) => w.confidence >= CONFIDENT));
}

/**
 * A reading with fewer letters than this in confidently read words, or under this share of its
 * letters so, reads poorly: its page may stand turned (see `OcrEngine.upright`). The generated
 * pages turned a quarter or half a turn read 11–85 such letters, 14–40 % of theirs; upright real
 * and generated image pages 110 or more, 73–99 %.
 */
const PLAIN_LETTERS = 80;
const PLAIN_SHARE = 0.5;

export function readsPoorly(words: readonly Read[]): boolean {
  const confident = confidentLetters(words);
  return confident < PLAIN_LETTERS || confident < lettersIn(words) * PLAIN_SHARE;
}
