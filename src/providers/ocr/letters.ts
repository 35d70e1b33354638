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
