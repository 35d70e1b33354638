import type { ImageRegion, OcrWord } from './ocr.ts';

/** A page reading's word at least this sure counts as having read its line. */
const READ = 0.6;

const area = (r: ImageRegion) => Math.max(0, r.width) * Math.max(0, r.height);

function intersection(a: ImageRegion, b: ImageRegion): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** Whether most of the word lies inside the region. */
export function inside(word: ImageRegion, region: ImageRegion): boolean {
  return intersection(word, region) > area(word) * 0.5;
}

/**
 * Detected text lines the page reading did not read: no sure word inside, or sure words covering
 * less than half the line's width (tesseract's layout skips type on photos and coloured plaques).
 */
export function missedLines(lines: readonly ImageRegion[], words: readonly OcrWord[]): ImageRegion[] {
  return lines.filter((line) => {
    const read = words.filter((w) => w.confidence >= READ && inside(w, line));
    const covered = read.reduce((sum, w) => sum + Math.min(w.width, line.width), 0);
    return covered < line.width * 0.5;
  });
}

/** Beyond this, a page reading's word stands even where the detector found no line. */
const SURE = 0.85;

/**
 * The page reading without the unsure words where the detector sees no text: tesseract reads
 * photos' texture as marks and short words ("Big", "AW)", "NL a a"), which then pass for names.
 */
export function onLines(words: readonly OcrWord[], lines: readonly ImageRegion[]): OcrWord[] {
  return words.filter((w) => w.confidence >= SURE || lines.some((l) => inside(w, l)));
}

/**
 * Lines side by side on one row, close together, as one strip: a big price's whole part, its
 * raised cents and its unit are detected apart but read together ("8," "99" "€ le kg").
 */
export function rowStrips(lines: readonly ImageRegion[]): ImageRegion[] {
  const strips = [...lines].sort((a, b) => a.x - b.x).map((l) => ({ ...l }));
  for (let merged = true; merged;) {
    merged = false;
    outer: for (let i = 0; i < strips.length; i += 1) {
      for (let j = 0; j < strips.length; j += 1) {
        if (i === j || !sameRow(strips[i]!, strips[j]!)) continue;
        strips[i] = union(strips[i]!, strips[j]!);
        strips.splice(j, 1);
        merged = true;
        break outer;
      }
    }
  }
  return strips;
}

function sameRow(a: ImageRegion, b: ImageRegion): boolean {
  const overlap = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  const smaller = Math.min(a.height, b.height);
  const larger = Math.max(a.height, b.height);
  const gap = Math.max(a.x, b.x) - Math.min(a.x + a.width, b.x + b.width);
  return overlap >= smaller * 0.5 && gap <= larger * 0.6;
}

function union(a: ImageRegion, b: ImageRegion): ImageRegion {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}

/**
 * A word of a reading again that counts: a lone character read out of its line's context is a
 * raised sign or a mark more often than a word (a "$" read as "5" before "4.99" made it 54.99).
 */
export const isReadAgain = (word: OcrWord): boolean => [...word.text].length > 1;

/** The strips in which a reading again found no word that counts. */
export function unreadStrips(strips: readonly ImageRegion[], reread: readonly OcrWord[]): ImageRegion[] {
  return strips.filter((strip) => !reread.some((w) => isReadAgain(w) && inside(w, strip)));
}

/**
 * The page reading with the missed lines read again. In a strip the new reading found words in,
 * the page reading keeps only its sure words, and new words over them give way; its unsure words
 * there go (both readings of one price side by side, "R$=799" and "7.99", were read as 7997.99).
 * A price the recogniser read (settled) wins over the page reading's words in it, sure or not:
 * tesseract is sure of the raised cents alone ("29" of a display "2,29").
 * A strip where the new reading found nothing keeps the page reading's words.
 */
export function withLinesReread(
  words: readonly OcrWord[],
  strips: readonly ImageRegion[],
  reread: readonly OcrWord[],
): OcrWord[] {
  const readAgain = reread.filter(isReadAgain);
  const settled = readAgain.filter((w) => w.settled);
  const replaced = strips.filter((s) => readAgain.some((w) => inside(w, s)));
  const kept = words.filter(
    (w) =>
      !settled.some((s) => inside(w, s)) && (w.confidence >= SURE || !replaced.some((s) => inside(w, s))),
  );
  const fresh = readAgain.filter(
    (w) =>
      w.settled ||
      !kept.some((k) => k.confidence >= SURE && intersection(k, w) > Math.min(area(k), area(w)) * 0.5),
  );
  return [...kept, ...fresh];
}

/** The strips' words, except where a strip reads as one price: there, that price, settled. */
export function withPriceLines(
  words: readonly OcrWord[],
  prices: ReadonlyArray<{ strip: ImageRegion; text: string; confidence: number }>,
): OcrWord[] {
  const kept = words.filter((w) => !prices.some((p) => inside(w, p.strip)));
  const settled = prices.map(({ strip, text, confidence }) => ({
    ...strip,
    text,
    confidence,
    settled: true,
  }));
  return [...kept, ...settled];
}

/**
 * Strips worth the price recogniser: those read with a digit, display-size ones (half again as
 * tall as the middle strip), where a price may have been read as letters, and those at least of
 * the middle height read again as words none of which is sure: an outlined italic "R$ 1,69"
 * reads as "“Los" at 0.00 in a strip only a little taller than the names around it. (A strip
 * read as nothing was read again on its own already.)
 */
export function mayHoldPrices(strips: readonly ImageRegion[], words: readonly OcrWord[]): ImageRegion[] {
  const heights = strips.map((s) => s.height).sort((a, b) => a - b);
  const middle = heights[heights.length >> 1] ?? 0;
  return strips.filter((strip) => {
    if (strip.height >= middle * 1.5) return true;
    const read = words.filter((w) => inside(w, strip));
    if (read.some((w) => /\d/.test(w.text))) return true;
    return strip.height >= middle && read.length > 0 && !read.some((w) => w.confidence >= READ);
  });
}

const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;

/**
 * Words in reading order: lines top to bottom (a word whose middle lies within the first word's
 * height of a line is on it), each line left to right, or right to left when most of its letters
 * are Hebrew or Arabic script. Text joined in this order keeps phrases whole ("Válido … 17 de
 * Junho de 2024.").
 */
export function readingOrder(words: readonly OcrWord[]): OcrWord[] {
  const middle = (w: OcrWord) => w.y + w.height / 2;
  const sorted = [...words].sort((a, b) => middle(a) - middle(b));
  const lines: OcrWord[][] = [];
  for (const word of sorted) {
    const line = lines.at(-1);
    const first = line?.[0];
    if (line && first && middle(word) - middle(first) <= first.height / 2) line.push(word);
    else lines.push([word]);
  }
  return lines.flatMap((line) => {
    const rtl = line.filter((w) => RIGHT_TO_LEFT.test(w.text)).length * 2 > line.length;
    return line.sort((a, b) => (rtl ? b.x + b.width - (a.x + a.width) : a.x - b.x));
  });
}
