import type { ImageRegion, OcrWord } from './ocr.ts';
import { inside, rowStrips } from './missed-lines.ts';

/** Lines read again by the price recogniser a page, at most (a hostile picture's lines are many). */
export const MAX_PRICE_CHECKS = 80;

/**
 * A price as a display line prints it: a sign or its misreadings, the amount with cents, a unit.
 * The recogniser's alphabet has no "€": a euro sign before the amount comes back as "E", "e" or "C".
 */
const AMOUNT_LINE = /^(?:R\$|RS|R5|R|\$|S|€|E|C)?\s?(\d{1,4}[.,]\d{2})\s?([a-z]{1,4})?$/iu;
/** "2x$5.00", "2X$5.00", "3/$10", "2 for $5": a count, a sign, the total (cents, or a whole of two digits at most). */
const MULTI_BUY_LINE = /^([2-9]|1[0-2])\s?(?:x|\/|for)\s?(R\$|\$)?\s?(\d{1,3}[.,]\d{2}|\d{1,2})$/iu;
/** "99¢" as the recogniser reads it: its alphabet has no "¢", which comes back as "c" or "d". */
const CENTS_LINE = /^(\d{1,2})\s?[¢cd]$/u;
/** "99p": pence, as British flyers print a price under a pound. */
const PENCE_LINE = /^(\d{1,2})p$/u;

/**
 * The words a display line's reading stands for when it is one price ("$4.99LB" → "4.99 LB",
 * "2X$5.00" → "2x$5.00", "99d" → "99¢"), or undefined. A whole amount without cents is no price
 * here but in a multi-buy: "$199" is how raised cents ($1⁹⁹) read, and only the glyphs' sizes tell.
 */
export function displayPrice(text: string): string | undefined {
  // Outlines and shadows of display type read as marks before or after it ('" 1,69', "** 4,98").
  const line = text.replace(/^[^\p{L}\p{N}$]+|[^\p{L}\p{N}]+$/gu, '');
  const amount = AMOUNT_LINE.exec(line);
  if (amount) return amount[2] ? `${amount[1]} ${amount[2]}` : amount[1];
  const multiBuy = MULTI_BUY_LINE.exec(line);
  if (multiBuy) {
    const [, count, sign, total] = multiBuy;
    // A whole total needs its sign to be read as money ("2x5" may be a pack: 2 x 5 pieces).
    if (!sign && !/[.,]/.test(total!)) return undefined;
    return `${count}x${sign ?? ''}${total}`;
  }
  const cents = CENTS_LINE.exec(line);
  if (cents) return `${cents[1]}¢`;
  const pence = PENCE_LINE.exec(line);
  return pence ? `${pence[1]}p` : undefined;
}

/** The figures of a reading, in order, with their separators ("S4991B" → "4991", "$4.99LB" → "4.99"). */
export function figuresOf(text: string): string {
  return text.replace(/[^\d.,]/g, '').replace(/^[.,]+|[.,]+$/g, '');
}

/**
 * Strips of the lines the page reading did read that hold a figure: where it may have misread a
 * display price (a condensed "$4.99LB" as "S4991B", "2X$6.00" as "2496.00"). The tallest first,
 * at most MAX_PRICE_CHECKS.
 */
export function stripsWithFigures(
  lines: readonly ImageRegion[],
  missed: readonly ImageRegion[],
  words: readonly OcrWord[],
): ImageRegion[] {
  const read = lines.filter((line) => !missed.includes(line));
  return rowStrips(read)
    .filter((strip) => words.some((w) => /\d/.test(w.text) && inside(w, strip)))
    .sort((a, b) => b.height - a.height)
    .slice(0, MAX_PRICE_CHECKS);
}

export interface PriceReading {
  /** Where the price is: the strip, or the one of its lines read on its own. */
  strip: ImageRegion;
  /** The price as words (`displayPrice`). */
  text: string;
  confidence: number;
}

/** A strip's lines read on their own, at most (a strip of a hostile picture may hold hundreds). */
const MAX_LINES_A_STRIP = 6;
/**
 * The certainty that suffices for a reading that begins with the figures the page reading saw there
 * ("13,80" where tesseract read "13;", the raised cents lost): the two readers agree on what both read.
 */
const AGREED_SURE = 0.7;

/**
 * The prices a strip shows: its reading when that is one price, else those of its detected lines
 * read one by one (two tiles' prices side by side are one strip: "5.65*895"; a badge's words
 * beside its amount: "DEON3990"), the lines where the page reading saw figures first. `read` is
 * the line recogniser; readings below `sure` count not, unless they continue the page reading's
 * figures there (`words`).
 */
export async function pricesIn(
  strip: ImageRegion,
  lines: readonly ImageRegion[],
  read: (region: ImageRegion) => Promise<{ text: string; confidence: number }>,
  sure: number,
  words: readonly OcrWord[] = [],
): Promise<PriceReading[]> {
  const sureOf = (region: ImageRegion, price: string) =>
    continuesPageFigures(words, region, price) ? Math.min(sure, AGREED_SURE) : sure;
  const reading = await read(strip);
  const whole = displayPrice(reading.text);
  if (whole && reading.confidence >= sureOf(strip, whole)) {
    return [{ strip, text: whole, confidence: reading.confidence }];
  }
  const figured = words.filter((w) => /\d/.test(w.text));
  const showsFigures = (line: ImageRegion) => figured.some((w) => inside(w, line));
  const within = lines.filter((line) => inside(line, strip)).sort((a, b) => a.x - b.x);
  const shows = new Set(within.filter(showsFigures));
  const parts = [...shows, ...within.filter((line) => !shows.has(line))]
    .slice(0, MAX_LINES_A_STRIP)
    .sort((a, b) => a.x - b.x);
  if (parts.length < 2) return [];
  const readings: Array<{ region: ImageRegion; text: string; confidence: number }> = [];
  for (const region of parts) readings.push({ region, ...(await read(region)) });
  const found: PriceReading[] = [];
  for (const [i, part] of readings.entries()) {
    const text = displayPrice(part.text);
    if (text) {
      if (part.confidence >= sureOf(part.region, text)) {
        found.push({ strip: part.region, text, confidence: part.confidence });
      }
    } else if (part.confidence >= sure) {
      const raised = withRaisedCents(part, readings[i + 1]);
      if (raised && raised.confidence >= sure) found.push(raised);
    }
  }
  return found;
}

/** A word the page reading read in `region` shows figures that `price` begins with (more of it read). */
function continuesPageFigures(words: readonly OcrWord[], region: ImageRegion, price: string): boolean {
  const digits = price.replace(/\D/g, '');
  return words.some((w) => {
    const seen = w.text.replace(/\D/g, '');
    return inside(w, region) && seen.length >= 2 && digits.length > seen.length && digits.startsWith(seen);
  });
}

/** A display price's whole part as the recogniser reads it alone: "11", "7", "€1,", "$4". */
const WHOLE_PART = /^(?:R\$|\$|S)?(\d{1,3})[.,]?$/u;
const RAISED_CENTS = /^(\d{2})$/u;
/** How much of the narrower of a whole part and its raised cents the two may overlap across. */
const BESIDE_OVERLAP = 0.25;

/**
 * A whole part and, right beside it, smaller and raised to its top, two digits: one price with
 * raised cents ("11" "49" → 11.49), which the detector finds as two lines and the recogniser,
 * read across both, as "1149".
 */
export function withRaisedCents(
  whole: { region: ImageRegion; text: string; confidence: number },
  next: { region: ImageRegion; text: string; confidence: number } | undefined,
): PriceReading | undefined {
  if (!next) return undefined;
  const amount = WHOLE_PART.exec(whole.text.replace(/^[^\p{N}$]+/u, '').trim());
  const cents = RAISED_CENTS.exec(next.text.replace(/[^\p{N}]+$/u, '').trim());
  if (!amount || !cents) return undefined;
  const a = whole.region;
  const b = next.region;
  const raised = b.height <= a.height * 0.8 && Math.abs(b.y - a.y) <= a.height * 0.3;
  // After the whole part, not over it: a pack size set above a price ("52 fl oz" over "$3⁹⁹")
  // starts at the price's left and sorts after it.
  const gap = b.x - (a.x + a.width);
  const beside = gap <= a.height * 0.5 && gap >= -Math.min(a.width, b.width) * BESIDE_OVERLAP;
  if (!raised || !beside) return undefined;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    strip: {
      x,
      y,
      width: Math.max(a.x + a.width, b.x + b.width) - x,
      height: Math.max(a.y + a.height, b.y + b.height) - y,
    },
    text: `${amount[1]},${cents[1]}`,
    confidence: Math.min(whole.confidence, next.confidence),
  };
}

/**
 * The words, where a strip's reading by the price recogniser is one price whose figures the page
 * reading's words in it do not show: those words give way to that price, settled. Where both
 * show the same figures the page reading stays (it keeps "€", "¢" and the words of a unit).
 */
export function withMisreadPrices(words: readonly OcrWord[], readings: readonly PriceReading[]): OcrWord[] {
  let result = [...words];
  for (const { strip, text: price, confidence } of readings) {
    const within = result.filter((w) => inside(w, strip));
    const seen = within.map((w) => w.text).join('');
    // The same figures stand, unless the reading shows the mark of cents or pence the page reading
    // lost ("99" for a display "99p": no price without it).
    const mark = /\d([¢p])$/u.exec(price)?.[1];
    if (figuresOf(seen) === figuresOf(price) && (!mark || seen.endsWith(mark))) continue;
    result = result.filter((w) => !within.includes(w));
    result.push({ ...strip, text: price, confidence, settled: true });
  }
  return result;
}
