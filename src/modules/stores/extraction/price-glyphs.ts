import type { ImageRegion, OcrEngine, OcrWord, PriceGlyphs } from '../../../providers/ocr/ocr.ts';

/**
 * Whole-page OCR reads body text well and big flyer prices badly: a tall whole part with raised
 * cents comes back as "2%", "4”", "0°" or "5" + "0°". Tall words that are not yet a readable price
 * are read again, on their own, digits only, tall part and raised part apart (the engine's
 * `readPrices`), and replaced by what that finds ("2.49", "95¢").
 */
export async function rereadBigPrices(ocr: OcrEngine, image: Buffer, words: OcrWord[]): Promise<OcrWord[]> {
  if (!ocr.readPrices) return words;
  const candidates = bigPriceCandidates(words);
  if (candidates.length === 0) return words;
  const regions = candidates.map((i) => regionAfter(words[i]!));
  const readings = await ocr.readPrices(image, regions);
  return applyReadings(words, candidates, regions, readings);
}

/** Taller than body text by this factor: a display price, not a line of text. */
const TALL = 1.8;

export function bigPriceCandidates(words: readonly OcrWord[]): number[] {
  const body = words.filter((w) => /\p{L}{2}/u.test(w.text)).map((w) => w.height);
  if (body.length === 0) return [];
  const median = [...body].sort((a, b) => a - b)[Math.floor(body.length / 2)]!;
  return words.flatMap((word, i) => {
    if (word.height < TALL * median) return [];
    const text = word.text.trim();
    if ((text.match(/\p{L}/gu) ?? []).length >= 2) return []; // a heading, not a price
    if (!/\d/.test(text) && text.length > 3) return [];
    if (/\d[.,]\d{2}(?!\d)|¢/.test(text)) return []; // already read as a price
    return [i];
  });
}

/** The word and room after it for raised cents (about half the height wide). */
export function regionAfter(word: OcrWord): ImageRegion {
  return {
    x: word.x,
    y: word.y - word.height * 0.1,
    width: word.width + word.height * 0.7,
    height: word.height * 1.2,
  };
}

export function applyReadings(
  words: readonly OcrWord[],
  candidates: readonly number[],
  regions: readonly ImageRegion[],
  readings: ReadonlyArray<PriceGlyphs | undefined>,
): OcrWord[] {
  const replaced = new Map<number, OcrWord>();
  const swallowed = new Set<number>();
  candidates.forEach((index, k) => {
    const reading = readings[k];
    const text = reading ? priceText(reading) : undefined;
    if (!reading || !text) return;
    const word = words[index]!;
    const region = regions[k]!;
    replaced.set(index, { ...word, text, width: Math.max(word.width, reading.right - word.x) });
    words.forEach((other, j) => {
      if (j === index || replaced.has(j)) return;
      const centre = other.x + other.width / 2;
      const inside =
        centre > word.x + word.width * 0.5 &&
        centre <= reading.right + 2 &&
        other.y >= region.y - 2 &&
        other.y + other.height <= region.y + region.height + 2;
      if (inside && !/^([$€£]|R\$)$/u.test(other.text.trim())) swallowed.add(j);
    });
  });
  return words.flatMap((word, i) => {
    if (swallowed.has(i) && !replaced.has(i)) return [];
    return [replaced.get(i) ?? word];
  });
}

/**
 * "2" + "49" → "2.49"; "50" + "¢" → "50¢"; a price with its mark on the baseline ("2,99") as read.
 * Digits with nothing raised are left to the page's reading (the point may simply be missing).
 */
function priceText(reading: PriceGlyphs): string | undefined {
  const inline = /^(\d{1,4})[.,](\d{2})$/.exec(reading.whole);
  if (inline && reading.raised === '') return `${inline[1]}.${inline[2]}`;
  const whole = reading.whole.replace(/[.,]$/, '');
  if (!/^\d{1,4}$/.test(whole)) return undefined;
  if (/^\d{2}$/.test(reading.raised)) return `${whole}.${reading.raised}`;
  if (reading.raised === '¢' && whole.length <= 2) return `${whole}¢`;
  return undefined;
}
