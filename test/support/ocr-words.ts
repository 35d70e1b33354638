import type { OcrWord } from '../../src/providers/ocr/ocr.ts';

/** A word as an OCR engine gives it: text, box in image pixels, certainty. */
export const ocrWord = (
  text: string,
  x: number,
  y: number,
  width: number,
  height: number,
  confidence = 0.95,
): OcrWord => ({ text, x, y, width, height, confidence });
