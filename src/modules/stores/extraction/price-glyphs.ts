import type { ImageRegion, OcrEngine, OcrWord, PriceGlyphs } from '../../../providers/ocr/ocr.ts';
import { bodyTextHeight, inMultiBuyLine } from './raised-cents.ts';

/**
 * Whole-page OCR reads body text well and big flyer prices badly: a tall whole part with raised
 * cents comes back as "2%", "4”", "0°" or "5" + "0°". Tall words that are not yet a readable price
 * are read again, on their own, digits only, tall part and raised part apart (the engine's
 * `readPrices`), and replaced by what that finds ("2.49", "95¢", the multi-buy "2/$13").
 */
export async function rereadBigPrices(ocr: OcrEngine, image: Buffer, words: OcrWord[]): Promise<OcrWord[]> {
  if (!ocr.readPrices) return words;
  const tall = tallHeight(words);
  if (tall === undefined) return words;
  // Display digits whole-page OCR missed altogether stand in as empty words where the ink shows them.
  const runs = ocr.findTallGlyphRuns ? await ocr.findTallGlyphRuns(image, tall) : [];
  const all = [...words, ...unreadRuns(words, runs, tall)];
  // Each read is an OCR call: a page (or a hostile image) with hundreds of tall shapes gets the
  // largest ones read, not hundreds of calls.
  const candidates = largestOnly(
    bigPriceCandidates(all).filter((i) => !inMultiBuyLine(all[i]!, all)),
    all,
  );
  if (candidates.length === 0) return words;
  const regions = candidates.map((i) =>
    downToRun(fromRunStart(regionAfter(all[i]!, all), all[i]!, runs, all), all[i]!, runs),
  );
  const readings = await ocr.readPrices(image, regions);
  return applyReadings(all, candidates, regions, readings).filter((w) => w.text !== '');
}

/** More big prices than any flyer page prints (the densest real pages hold about 60 offers). */
export const MAX_PRICE_READS_PER_PAGE = 80;

/** The tallest MAX_PRICE_READS_PER_PAGE candidates, in reading order. */
function largestOnly(indices: number[], words: readonly OcrWord[]): number[] {
  if (indices.length <= MAX_PRICE_READS_PER_PAGE) return indices;
  return [...indices]
    .sort((a, b) => words[b]!.height - words[a]!.height)
    .slice(0, MAX_PRICE_READS_PER_PAGE)
    .sort((a, b) => a - b);
}

/** Runs of tall glyphs that no tall word covers, as empty words to read. */
function unreadRuns(words: readonly OcrWord[], runs: readonly ImageRegion[], tall: number): OcrWord[] {
  const tallWords = words.filter((w) => w.height >= tall);
  return runs
    .filter((run) => !tallWords.some((w) => overlapShare(w, run) > 0.3))
    .map((run) => ({ text: '', ...run, confidence: 0 }));
}

/**
 * How much of a run and a word must overlap for the word to be a piece of it: a third, since OCR
 * boxes the last whole digit with the raised cents ("0”" for the "0⁷⁹" of "$10⁷⁹"), a box the
 * run covers less than half of.
 */
const RUN_OVERLAP = 0.3;

/**
 * OCR may box a big price in pieces ("2" as "É", then "2⁴⁹" as "aa"): a word inside a run of tall
 * glyphs that starts further left, where OCR boxed nothing, is read from the run's start, so the
 * price is read whole. (Where another word covers the run's start, that word reads the price.)
 */
function fromRunStart(
  region: ImageRegion,
  word: OcrWord,
  runs: readonly ImageRegion[],
  words: readonly OcrWord[],
): ImageRegion {
  const centre = word.y + word.height / 2;
  const run = runs.find(
    (r) =>
      r.x < region.x &&
      overlapShare(r, word) > RUN_OVERLAP &&
      Math.abs(r.y + r.height / 2 - centre) <= word.height * 0.4,
  );
  if (!run) return region;
  const covered = words.some(
    (other) =>
      other !== word &&
      other.text !== '' &&
      other.x < word.x &&
      other.x + other.width > run.x &&
      Math.abs(other.y + other.height / 2 - centre) <= word.height * 0.4,
  );
  if (covered) return region;
  const x = Math.max(0, run.x - word.height * 0.05);
  // As much room after the run as after a word, for its raised cents.
  const right = Math.max(region.x + region.width, run.x + run.width + word.height * 1.1);
  return { ...region, x, width: right - x };
}

/**
 * OCR may box the raised cents and only the top of the whole part ("49" over "5⁴⁹"): a word that
 * ends above the last quarter of the run of tall glyphs it lies on is read to the run's height, or
 * the whole part, cut at the word's bottom, never reaches the baseline and is read as nothing.
 */
function downToRun(region: ImageRegion, word: OcrWord, runs: readonly ImageRegion[]): ImageRegion {
  const run = runs.find(
    (r) => overlapShare(r, word) > RUN_OVERLAP && word.y + word.height < r.y + r.height * 0.75,
  );
  if (!run) return region;
  const margin = run.height * 0.1;
  const top = Math.min(region.y, run.y - margin);
  const bottom = Math.max(region.y + region.height, run.y + run.height + margin);
  return { ...region, y: Math.max(0, top), height: bottom - Math.max(0, top) };
}

function overlapShare(a: ImageRegion, b: ImageRegion): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  return (w * h) / Math.min(a.width * a.height, b.width * b.height);
}

/** The height from which a word is display type: TALL × the median height of words with letters. */
function tallHeight(words: readonly OcrWord[]): number | undefined {
  const body = bodyTextHeight(words);
  return body === undefined ? undefined : TALL * body;
}

/** Taller than body text by this factor: a display price, not a line of text. */
const TALL = 1.8;
/** OCR confidence below which a tall word is read again whatever letters it shows. */
const DOUBTFUL = 0.6;

export function bigPriceCandidates(words: readonly OcrWord[]): number[] {
  const tall = tallHeight(words);
  if (tall === undefined) return [];
  return words.flatMap((word, i) => {
    if (word.height < tall || word.settled) return [];
    // A raised "R$" or "$" glued to the digits is often read as letters ("RSG", "R$Q9S").
    const text = word.text.trim().replace(/^(?:R\$|RS|R5|R)/u, '');
    // A heading, not a price, unless OCR itself doubts the reading ("Ripe", "Regge" for "R$ 25⁵⁰").
    const wordy = (text.match(/\p{L}/gu) ?? []).length >= 3 || (!/\d/.test(text) && text.length > 3);
    if (wordy && word.confidence >= DOUBTFUL) return [];
    if (/¢/.test(text)) return [];
    return [i]; // even a word read as a price: "920.50" may be a raised "R$" read as 9
  });
}

/**
 * The word, the tall words that continue it on its line (one price read as "4" + "6.49"), and room
 * after them for raised cents (about half the height wide), or to the end of the raised cents
 * where OCR boxed them as a word of their own that the room would cut ("49" after "J" + "1" for
 * "€11⁴⁹": cut inside its "9", read "4¢").
 */
export function regionAfter(word: OcrWord, words: readonly OcrWord[] = []): ImageRegion {
  let right = word.x + word.width;
  for (;;) {
    // Only a word that reaches further right continues the price: one lying inside the run so far
    // (a stray mark OCR boxed there) would be found again and again.
    const next = words.find(
      (other) =>
        other.x + other.width > right &&
        other.x > right - word.height * 0.1 &&
        other.x - right <= word.height * 0.35 &&
        other.height >= word.height * 0.8 &&
        Math.abs(other.y - word.y) <= word.height * 0.2,
    );
    if (!next) break;
    right = next.x + next.width;
  }
  const room = right + word.height * CENTS_ROOM;
  const cents = words.find(
    (other) =>
      RAISED_CENTS.test(other.text.trim()) &&
      other.x >= right - word.height * 0.1 &&
      other.x < room &&
      other.x + other.width > room &&
      other.x + other.width <= room + word.height * CENTS_ROOM &&
      other.height >= word.height * 0.3 &&
      other.height < word.height * 0.8 &&
      Math.abs(other.y - word.y) <= word.height * 0.2,
  );
  const end = cents ? cents.x + cents.width + word.height * 0.1 : room;
  return {
    x: word.x,
    y: word.y - word.height * 0.1,
    width: end - word.x,
    height: word.height * 1.2,
  };
}

/** Room after a big price's tall digits for its raised cents, in its heights. */
const CENTS_ROOM = 1.1;
/** OCR's reading of raised cents boxed on their own: two digits (a price's other figures are another price). */
const RAISED_CENTS = /^\d{2}$/;

export function applyReadings(
  words: readonly OcrWord[],
  candidates: readonly number[],
  regions: readonly ImageRegion[],
  readings: ReadonlyArray<PriceGlyphs | undefined>,
): OcrWord[] {
  const replaced = new Map<number, OcrWord>();
  const swallowed = new Set<number>();
  candidates.forEach((index, k) => {
    if (swallowed.has(index)) return; // part of a price read from an earlier word
    const reading = readings[k];
    const word = words[index]!;
    const text = reading ? (priceText(reading) ?? withoutSignReadAsOne(word, reading)) : undefined;
    if (!reading || !text) return;
    const region = regions[k]!;
    // A region that starts left of its word (the word was a piece of the price) covers that piece.
    const left = Math.min(word.x, region.x);
    replaced.set(index, {
      ...word,
      text,
      x: left,
      width: Math.max(word.x + word.width, reading.right) - left,
      confidence: reading.confidence,
    });
    const from = region.x < word.x ? region.x : word.x + word.width * 0.5;
    // The reader may have read below the region, down to the digits' foot.
    const bottom = Math.max(region.y + region.height, reading.bottom ?? 0);
    words.forEach((other, j) => {
      if (j === index || replaced.has(j)) return;
      const centre = other.x + other.width / 2;
      const inside =
        ((centre > from && centre <= reading.right + 2) || isOtherReading(other, left, reading.right)) &&
        other.y >= region.y - 2 &&
        other.y + other.height <= bottom + 2;
      if (inside && !/^([$€£]|R\$)$/u.test(other.text.trim())) swallowed.add(j);
    });
  });
  return words.flatMap((word, i) => {
    if (swallowed.has(i) && !replaced.has(i)) return [];
    return [replaced.get(i) ?? word];
  });
}

/**
 * A word with digits lying mostly over the price just read is OCR's other reading of it ("R$=799"
 * boxed over the sign, the top of the "7" and the cents of "R$7⁹⁹"): left beside the reading, the
 * two made "7997.99".
 */
function isOtherReading(other: OcrWord, left: number, right: number): boolean {
  if (!/\d/.test(other.text) || other.width <= 0) return false;
  const shared = Math.min(other.x + other.width, right) - Math.max(other.x, left);
  return shared > other.width * 0.5;
}

/**
 * A currency sign before the digits that the page's OCR read as a "1" ("€4,⁹⁹" as "1499": the small
 * euro sign set low on the digits' baseline) where the digit reader, which keeps what is no tall
 * digit out of the whole part, read the rest alone ("499"): the word's figures without that "1",
 * left to the page's reading as other glued raised cents are. Each tall glyph is a digit of its
 * reading (the reader reads again when it finds fewer), so a real "1" is not what it dropped.
 */
function withoutSignReadAsOne(word: OcrWord, reading: PriceGlyphs): string | undefined {
  if (reading.raised !== '' || !/^\d{2,4}$/.test(reading.whole)) return undefined;
  return word.text === `1${reading.whole}` ? reading.whole : undefined;
}

/**
 * "2" + "49" → "2.49"; "50" + "¢" → "50¢"; a price with its mark on the baseline ("2,99") as read.
 * Digits with nothing raised are left to the page's reading (the point may simply be missing).
 */
function priceText(reading: PriceGlyphs): string | undefined {
  // A multi-buy in display type ("2/$13"), which whole-page OCR reads "2/81" + "3".
  const multiBuy = /^([2-9]|1\d)\/\$(\d{1,3})$/.exec(reading.whole);
  if (multiBuy) return reading.raised === '' ? `${multiBuy[1]}/$${multiBuy[2]}` : undefined;
  const inline = /^(\d{1,4})[.,](\d{2})$/.exec(reading.whole);
  if (inline && reading.raised === '') return `${inline[1]}.${inline[2]}`;
  const whole = reading.whole.replace(/[.,]$/, '');
  if (!/^\d{1,4}$/.test(whole)) return undefined;
  // Three raised digits: the decimal comma before the cents was read as a digit ("149" for ",49").
  const cents = /^\d?(\d{2})$/.exec(reading.raised);
  if (cents) return `${whole}.${cents[1]}`;
  if (reading.raised === '¢' && whole.length <= 2) return `${whole}¢`;
  return undefined;
}
