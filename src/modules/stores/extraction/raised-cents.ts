import type { LayoutItem } from './layout.ts';
import { inArabicForms, inPersianForms } from '../../../providers/ocr/arabic-letters.ts';
import { findPrices } from './prices.ts';

/**
 * Flyers print big prices with their cents raised and small: `$1⁹⁹`, `2,⁴⁹ €`, `R$ 20⁵⁰`, `95¢`.
 * OCR (and some text layers) return those as separate words: a small currency sign, a tall whole
 * part, and a small number whose top is level with the tall one. Read apart they become "1" and
 * "99" (or 199.00 when glued); this joins them into one price word, `$1.99`, `2,49 €`, `95¢`, with
 * the box of the whole and the tall part's height.
 */
const WHOLE = /^([$€£]|R\$)?(\d{1,4})([.,])?$/u;
const CENTS = /^(\d{2})([¢€$]|\s*€)?$/u;
const SIGN = /^([$€£]|R\$)$/u;
const CENT_SIGN = /^¢$/u;

/** A raised part is at most this share of the tall part's height… */
const MAX_RAISED_RATIO = 0.75;
/** …starts within this share of it after the tall part ends… */
const MAX_GAP_RATIO = 0.6;
/** …and its top is level with the tall part's top within this share. */
const MAX_TOP_OFFSET_RATIO = 0.3;

export function joinRaisedCents(items: readonly LayoutItem[]): LayoutItem[] {
  const used = new Set<number>();
  /** Index of the first part of each joined price → the joined word, emitted in its place. */
  const joinedAt = new Map<number, LayoutItem>();
  const order = items.map((_, i) => i).sort((a, b) => items[a]!.x - items[b]!.x);
  for (const i of order) {
    if (used.has(i)) continue;
    const whole = items[i]!;
    const match = WHOLE.exec(whole.text.trim());
    if (!match) continue;
    const raised = findRaised(items, i, used, (t) => CENTS.test(t) || CENT_SIGN.test(t));
    if (raised === undefined) continue;
    used.add(i).add(raised);
    const signIndex = match[1] ? undefined : findSignIndex(items, i, used);
    if (signIndex !== undefined) used.add(signIndex);
    const sign = match[1] ?? (signIndex !== undefined ? items[signIndex]!.text.trim() : undefined);
    const parts = [i, raised, ...(signIndex !== undefined ? [signIndex] : [])];
    joinedAt.set(
      Math.min(...parts),
      joined(whole, items[raised]!, match, signIndex !== undefined ? items[signIndex] : undefined, sign),
    );
  }
  return items.flatMap((item, i) => {
    const word = joinedAt.get(i);
    if (word) return [word];
    return used.has(i) ? [] : [item];
  });
}

function joined(
  whole: LayoutItem,
  small: LayoutItem,
  match: RegExpExecArray,
  signItem: LayoutItem | undefined,
  sign: string | undefined,
): LayoutItem {
  const digits = match[2]!;
  const smallText = small.text.trim();
  let text: string;
  if (CENT_SIGN.test(smallText)) text = `${digits}¢`;
  else {
    const cents = CENTS.exec(smallText)!;
    const mark = match[3] ?? (cents[2]?.includes('€') || sign === '€' || sign === 'R$' ? ',' : '.');
    const trailing = cents[2]?.trim() && cents[2].trim() !== '¢' ? ` ${cents[2].trim()}` : '';
    text = `${sign && !trailing ? `${sign} ` : ''}${digits}${mark}${cents[1]}${trailing}`;
  }
  const parts = [whole, small, ...(signItem ? [signItem] : [])];
  const left = Math.min(...parts.map((p) => p.x));
  const right = Math.max(...parts.map((p) => p.x + p.width));
  const top = Math.min(...parts.map((p) => p.y));
  const confidence = Math.min(...parts.map((p) => p.confidence ?? 1));
  return {
    text,
    x: left,
    y: top,
    width: right - left,
    height: Math.max(whole.height, whole.y + whole.height - top),
    ...(whole.confidence !== undefined || small.confidence !== undefined ? { confidence } : {}),
  };
}

function findRaised(
  items: readonly LayoutItem[],
  wholeIndex: number,
  used: Set<number>,
  accepts: (text: string) => boolean,
): number | undefined {
  const whole = items[wholeIndex]!;
  const end = whole.x + whole.width;
  let best: number | undefined;
  items.forEach((item, j) => {
    if (j === wholeIndex || used.has(j) || !accepts(item.text.trim())) return;
    if (item.height > whole.height * MAX_RAISED_RATIO) return;
    const gap = item.x - end;
    if (gap < -0.15 * whole.height || gap > MAX_GAP_RATIO * whole.height) return;
    if (Math.abs(item.y - whole.y) > MAX_TOP_OFFSET_RATIO * whole.height) return;
    if (best === undefined || item.x < items[best]!.x) best = j;
  });
  return best;
}

/** A small currency sign just before the tall part, level with its top. */
function findSignIndex(
  items: readonly LayoutItem[],
  wholeIndex: number,
  used: Set<number>,
): number | undefined {
  const whole = items[wholeIndex]!;
  let best: number | undefined;
  items.forEach((item, j) => {
    if (j === wholeIndex || used.has(j) || !SIGN.test(item.text.trim())) return;
    const gap = whole.x - (item.x + item.width);
    if (gap < -0.15 * whole.height || gap > 0.5 * whole.height) return;
    if (Math.abs(item.y - whole.y) > 0.4 * whole.height) return;
    best = j;
  });
  return best;
}

/**
 * Square and curly brackets and bars at a word's ends ("[POTATO", "FARMS]", "{ARDWOOD", "[LB]"):
 * the edges of a highlight band or a box behind the type, which no flyer name prints.
 */
const HIGHLIGHT_EDGES = /^[[{|¦]+(?=\p{L}{2})|(?<=\p{L}{2})[\]}|¦]+$/gu;

/**
 * A price struck through (the regular one), read with the line as a semicolon for its comma, or as
 * dashes after its cents (a colon then, not a time's "22:00"), its words glued to it: "24;29-€",
 * "3:20-€", "12:39-—€", "68;89-por", "Antes-9:35-€", "4,99-€".
 */
const STRUCK_PRICE =
  /^(\p{L}*)-?(\d{1,4})(?:;(\d{2})[-–—]*|:(\d{2})[-–—]+|([.,]\d{2})[-–—]+(?=[€$£]))([€$£]?)(\p{L}*)$/u;

function struckPrice(...[, before, whole, semicolon, colon, cents, sign, after]: string[]): string {
  const amount = `${whole}${cents ?? `,${semicolon ?? colon}`}${sign}`;
  return [before, amount, after].filter(Boolean).join(' ');
}

/**
 * What OCR commonly gets wrong in flyer words, repaired where the reading is unambiguous:
 * - "/Ib" (capital I) for "/lb";
 * - a small price that lost its decimal point or read it as a dash: "$189", "$6-39" (a currency
 *   sign then three or four digits is, on a grocery flyer, cents without their mark);
 * - a big cents price whose raised "¢" was read as a degree sign ("79°"): in type at least twice
 *   the page's body text a lone two-digit number with a degree is a price, not a temperature
 *   (those are small print: "store at 4°"); a lone digit ("1°") is more often "$1⁹⁵" garbled;
 * - a display-size "RS" or "R5" alone: the real's sign, "R$";
 * - the euro sign beside a price in Persian or Arabic digits, which those models read as a Latin
 *   "6" or "©" glued to the digits ("6۲۲,۲۹" for "€ ۲۲,۲۹"): one number never mixes digit sets;
 * - a stray mark glued to a word's end ("Strawberries§"): no word a flyer prints ends so, and
 *   kept, it made the name look like noise; so too a highlight band's edges ("[POTATO", "FARMS]");
 * - a cent sign beside a euro sign after an amount ("2x5¢€"): the euro's bars read a second time as
 *   "¢", which made "2 x 5 €" two for five cents. No flyer prices in both;
 * - "S$" for "$" (the sign's stroke read as an S beside it): "3 for S$ 16" was 16.00. Singapore's
 *   dollar, printed so, is the same amount;
 * - a date's second slash read as "1" ("23/1012025"): the date went unread, and the validity with it;
 * - the "o" of "oz" read as a zero after a pack's figures ("120z", "14 0Z" for "12oz", "14 OZ"): the
 *   size went unread and its figure joined the name;
 * - a price struck through read with the line as a semicolon for its comma or a dash after its
 *   cents ("24;29-€", "3:20-€"): the regular price went unread.
 */
export function fixOcrWords(items: readonly LayoutItem[]): LayoutItem[] {
  const body = bodyTextHeight(items);
  return items.map((item) => {
    let fixed = item.text
      .replace(/^(\/?)I(bs?\.?)$/u, '$1l$2')
      .replace(/^([$€£]|R\$)(\d{1,2})[-‐–]?(\d{2})$/u, '$1$2.$3');
    if (body !== undefined && item.height >= 2 * body)
      fixed = fixed.replace(/^([1-9]\d)[°º]$/u, '$1¢').replace(REAL_SIGN_MISREAD, 'R$');
    fixed = fixed
      .replace(/^(\p{L}{4,})[§©“”‘|¦]$/u, '$1')
      .replace(HIGHLIGHT_EDGES, '')
      .replace(/^[6©]([۰-۹٠-٩]+[,٫.][۰-۹٠-٩]{2})$/u, '€$1')
      .replace(/^([۰-۹٠-٩]+[,٫.][۰-۹٠-٩]{2})[6©]$/u, '$1€')
      .replace(/(\d)\s*(?:¢\s*€|€\s*¢)/u, '$1€')
      .replace(STRUCK_PRICE, struckPrice)
      .replace(/^([$€£]|R\$)(\d{1,3}):(\d{2})$/u, '$1$2.$3')
      .replace(/^S\$(?=\d|$)/u, '$')
      .replace(/^(\d{1,2})\/(0?[1-9]|1[0-2])1((?:19|20)\d{2})$/u, '$1/$2/$3')
      .replace(
        /^(\d+(?:[.,]\d+)?)0([zZ])$/u,
        (_, size: string, z: string) => `${size}${z === 'Z' ? 'O' : 'o'}${z}`,
      )
      .replace(/^0([zZ])$/u, (_, z: string) => (z === 'Z' ? 'OZ' : 'oz'));
    return fixed === item.text ? item : { ...item, text: fixed };
  });
}

/**
 * Tall digits OCR read as separate words ("9" "5¢" for a big 95¢): neighbours of the same height,
 * tops level, nearly touching, are one number.
 */
export function joinSplitDigits(items: readonly LayoutItem[]): LayoutItem[] {
  const out: LayoutItem[] = [];
  const absorbed = new Set<number>();
  items.forEach((item, i) => {
    if (absorbed.has(i)) return;
    let current = item;
    for (;;) {
      if (!/^([$€£]|R\$)?\d{1,3}$/u.test(current.text)) break;
      const next = items.findIndex(
        (other, j) =>
          j !== i &&
          !absorbed.has(j) &&
          /^\d{1,2}[¢€$]?$/u.test(other.text) &&
          Math.abs(other.height - current.height) <= 0.2 * current.height &&
          Math.abs(other.y - current.y) <= 0.15 * current.height &&
          other.x - (current.x + current.width) >= -0.05 * current.height &&
          other.x - (current.x + current.width) <= 0.3 * current.height,
      );
      if (next < 0) break;
      absorbed.add(next);
      const other = items[next]!;
      current = {
        ...current,
        text: `${current.text}${other.text}`,
        width: other.x + other.width - current.x,
        ...(current.confidence !== undefined
          ? { confidence: Math.min(current.confidence, other.confidence ?? 1) }
          : {}),
      };
    }
    out.push(current);
  });
  // A word absorbed after it was already emitted (it came first in reading order) goes away.
  const gone = new Set([...absorbed].map((j) => items[j]!));
  return out.filter((item) => !gone.has(item));
}

const PERSIAN_ONLY = /[پچژگ]/u;

/**
 * OCR of Arabic script mixes the Arabic and Persian forms of yeh and kaf (ي ى / ی, ك / ک) within
 * one page. The page's own letters decide: any Persian-only letter (پ چ ژ گ) makes it Persian and
 * every yeh and kaf takes the Persian form; otherwise they take the Arabic one.
 */
export function harmoniseArabicScript(items: readonly LayoutItem[]): LayoutItem[] {
  const all = items.map((i) => i.text).join(' ');
  if (!/\p{Script=Arabic}/u.test(all)) return [...items];
  const inPageForms = PERSIAN_ONLY.test(all) ? inPersianForms : inArabicForms;
  return items.map((item) => {
    const text = inPageForms(item.text);
    return text === item.text ? item : { ...item, text };
  });
}

/**
 * A display-size number of three or four digits with no mark, "1149", is a price whose raised
 * cents lost their place (OCR text layers over flyer images read `11⁴⁹` so): 11,49. Years are left
 * alone, and so is anything printed at body size (phone numbers, page numbers, quantities) or in
 * a multi-buy ("Leve 4 por R$ 102" is 25,50 each).
 */
export function splitGluedCents(items: readonly LayoutItem[]): LayoutItem[] {
  const median = bodyTextHeight(items);
  if (median === undefined) return [...items];
  return items.map((item) => {
    const digits = /^(\d{1,2})(\d{2})$/.exec(item.text.trim());
    if (!digits || item.height < 1.8 * median) return item;
    if (/^(19|20)\d\d$/.test(item.text.trim()) || inMultiBuyLine(item, items)) return item;
    return { ...item, text: `${digits[1]},${digits[2]}` };
  });
}

/** The median height of the words with letters on a page: the size of its body text. */
export function bodyTextHeight(items: ReadonlyArray<{ text: string; height: number }>): number | undefined {
  const body = items.filter((i) => /\p{L}{2}/u.test(i.text)).map((i) => i.height);
  if (body.length === 0) return undefined;
  return [...body].sort((a, b) => a - b)[Math.floor(body.length / 2)]!;
}

/** A raised "R$" as OCR often reads it. */
const REAL_SIGN_MISREAD = /^R[S5]$/u;

type Boxed = Pick<LayoutItem, 'text' | 'x' | 'y' | 'width' | 'height'>;

/**
 * Whether a word stands in a multi-buy read whole on its line ("Leve 4 por R$ 102", "3 for $8"):
 * its numbers are a count and a whole amount, not a price whose cents lost their place.
 */
export function inMultiBuyLine(word: Boxed, words: readonly Boxed[]): boolean {
  const centre = word.y + word.height / 2;
  const line = words
    .filter(
      (w) =>
        w.text !== '' &&
        Math.abs(w.y + w.height / 2 - centre) <= word.height * 0.4 &&
        Math.abs(w.height - word.height) <= word.height * 0.5,
    )
    .sort((a, b) => a.x - b.x);
  // Only the words set close together around it: a neighbouring tile's price shares the baseline.
  const at = line.indexOf(word);
  if (at < 0) return false;
  const near = (a: Boxed, b: Boxed) => b.x - (a.x + a.width) <= word.height;
  let from = at;
  while (from > 0 && near(line[from - 1]!, line[from]!)) from -= 1;
  let to = at;
  while (to < line.length - 1 && near(line[to]!, line[to + 1]!)) to += 1;
  const text = line
    .slice(from, to + 1)
    .map((w) => w.text.trim().replace(REAL_SIGN_MISREAD, 'R$'))
    .join(' ');
  return findPrices(text).some((p) => p.multiBuy);
}
