import { createCanvas, type Canvas, type Image, type SKRSContext2D } from '@napi-rs/canvas';
import type { Page, Worker } from 'tesseract.js';
import { isInk } from './ink.ts';
import type { ImageRegion, PriceGlyphs } from './ocr.ts';
import { decodedPicture } from './picture.ts';
import { mayHoldPlaque, plaqueType, type InkShape } from './plaque-type.ts';

/** A column with ink in the lowest part of the region belongs to the tall digits. */
const LOW_BAND = 0.65;
/** Digits are recognised at about this height in pixels, where tesseract reads best. */
const GLYPH_HEIGHT = 40;

/**
 * Splits each region at the last column that has ink low down (the tall digits reach the
 * baseline; raised cents do not), then reads both parts with a digits-only worker.
 */
export async function readPriceGlyphs(
  worker: Worker,
  image: Buffer,
  regions: readonly ImageRegion[],
): Promise<Array<PriceGlyphs | undefined>> {
  const picture = await decodedPicture(image);
  const page: PageReading = { worker, page: picture, picture, rereads: MAX_REREADS };
  const out: Array<PriceGlyphs | undefined> = [];
  for (const region of regions) out.push(await readRegion(page, clamp(region, picture)));
  return out;
}

/**
 * White type on a coloured plaque: its ink is the plaque, one shape through the region, and the
 * whole part and the raised cents are never told apart. It is read drawn dark on white instead.
 */
async function readRegion(page: PageReading, region: ImageRegion): Promise<PriceGlyphs | undefined> {
  if (region.width < 4 || region.height < 8) return undefined;
  const ink = inkOf(page.page, region);
  const plaque = mayHoldPlaque(ink)
    ? plaqueType(
        page.page,
        region,
        ink,
        lowGlyphSpans(ink, region.width, region.height, 0),
        Math.round(region.height * MAX_FOOT),
      )
    : undefined;
  if (!plaque) {
    page.picture = page.page;
    return readOne(page, toGlyphsFoot(page.page, region), false);
  }
  page.picture = plaque.picture;
  const local = { ...region, x: region.x - plaque.x, y: region.y - plaque.y };
  const reading = await readOne(page, toGlyphsFoot(plaque.picture, local), true);
  if (!reading) return undefined;
  const bottom = reading.bottom === undefined ? undefined : reading.bottom + plaque.y;
  return { ...reading, right: reading.right + plaque.x, bottom };
}

/**
 * Second readings of a part that read wrong, per call: a real page needs a few, a hostile picture
 * of tall shapes would double the price reads' OCR calls without a bound.
 */
export const MAX_REREADS = 20;

interface PageReading {
  worker: Worker;
  page: Image;
  /** What a region is read on: the page, or a plaque's type drawn dark on white. */
  picture: Image | Canvas;
  /** Second readings left. */
  rereads: number;
}

async function readOne(
  page: PageReading,
  region: ImageRegion,
  onPlaque: boolean,
): Promise<PriceGlyphs | undefined> {
  const { picture } = page;
  if (region.width < 4 || region.height < 8) return undefined;
  const { tallStart, tallEnd, inkEnd, tallGlyphs, raisedTop } = inkProfile(picture, region);
  if (tallEnd < 0) return undefined;
  // A raised sign before the digits ("R$", "$") stays out of the tall part.
  const from = Math.max(0, tallStart - 2);
  const whole = await readWhole(
    page,
    { ...region, x: region.x + from, width: tallEnd + 2 - from },
    tallGlyphs,
  );
  const raisedWidth = inkEnd - tallEnd - 1;
  const raised =
    raisedWidth >= region.height * 0.15
      ? await readRaised(
          page,
          raisedPart(region, tallEnd, raisedWidth, tallGlyphs, onPlaque ? raisedTop : undefined),
        )
      : { text: '', confidence: 1 };
  return {
    whole: whole.text,
    raised: raised.text,
    right: region.x + inkEnd,
    bottom: region.y + region.height,
    confidence: Math.min(whole.confidence, raised.confidence),
  };
}

/**
 * The raised part: the columns after the tall digits, down to LOW_BAND of the region's height. On
 * a plaque (`plaqueInkTop`: the first row of ink in those columns), from the digits' top, since
 * OCR's box of white type may take the page over the plaque (LOW_BAND of that region's height cut
 * the raised digits' feet: "⁴⁹" read "40"); or from the cents' own top where they rise above the
 * whole part's (cut there, "⁹⁹" read as nothing). The page over the plaque is drawn white, so
 * the ink there is the plaque's type; a line set further up on it (a pack size) is not followed.
 */
function raisedPart(
  region: ImageRegion,
  tallEnd: number,
  width: number,
  tallGlyphs: readonly GlyphColumns[],
  plaqueInkTop: number | undefined,
): ImageRegion {
  const digitsTop = tallGlyphs.length > 0 ? Math.min(...tallGlyphs.map((g) => g.top)) : region.y;
  const bottom = region.y + region.height;
  const centsTop =
    plaqueInkTop !== undefined && digitsTop - plaqueInkTop <= (bottom - digitsTop) * MAX_CENTS_RISE
      ? Math.min(digitsTop, plaqueInkTop)
      : digitsTop;
  const top =
    plaqueInkTop !== undefined ? Math.max(region.y, centsTop - Math.round(region.height * 0.05)) : region.y;
  return { x: region.x + tallEnd + 2, y: top, width, height: Math.round((bottom - top) * LOW_BAND) };
}

/** How far above the whole part's top raised cents may reach, as a share of its height. */
const MAX_CENTS_RISE = 0.3;

/** A glyph's first and last columns and its top row, in picture pixels. */
interface GlyphColumns {
  left: number;
  right: number;
  top: number;
}

/**
 * The tall part. Fewer digits read than it has glyphs ("1," for the two ones of "11," in a bold
 * condensed face, set close) is read again with its glyphs drawn apart, and taken when that reads
 * one digit a glyph.
 */
async function readWhole(
  page: PageReading,
  region: ImageRegion,
  glyphs: readonly GlyphColumns[],
): Promise<{ text: string; confidence: number }> {
  const { worker, picture } = page;
  // Ink above the digits' tops (the descenders of the line above: "675 g") is no part of them.
  const top = Math.min(...glyphs.map((g) => g.top)) - Math.round(region.height * 0.05);
  const from = glyphs.length > 0 ? Math.max(region.y, top) : region.y;
  const reading = await readDigits(worker, picture, region, from);
  const digits = (text: string) => (text.match(/\d/g) ?? []).length;
  if (glyphs.length < 2 || digits(reading.text) >= glyphs.length || page.rereads <= 0) return reading;
  page.rereads -= 1;
  const apart = drawnApart(picture, region, glyphs, from);
  const again = await readDigits(worker, apart, { x: 0, y: 0, width: apart.width, height: apart.height });
  return digits(again.text) === glyphs.length ? again : reading;
}

/**
 * The glyphs side by side with a gap of a third of their height between them, each without the
 * ink of other shapes in its columns: a small sign set on the baseline under the first digit's
 * flag ("€11,⁴⁹") left a speck beside it, and the two ones of "11" read as one.
 */
function drawnApart(
  picture: Image | Canvas,
  region: ImageRegion,
  glyphs: readonly GlyphColumns[],
  from: number,
): Canvas {
  const gap = Math.round(region.height / 3);
  const width = glyphs.reduce((sum, g) => sum + g.right - g.left + 1, 0) + gap * (glyphs.length - 1);
  const canvas = createCanvas(width, region.height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, width, region.height);
  const rows = region.y + region.height - from;
  let x = 0;
  for (const glyph of glyphs) {
    const w = glyph.right - glyph.left + 1;
    g.drawImage(picture, glyph.left, from, w, rows, x, from - region.y, w, rows);
    if (rows > 0) withoutOtherShapes(g, { x, y: from - region.y, width: w, height: rows });
    x += w + gap;
  }
  return canvas;
}

/**
 * Whitens, in `area` of the drawing (a glyph's columns), the ink of the shapes its sides cut other
 * than the glyph (the shape with the most ink there): a neighbour's, which goes on outside them.
 */
function withoutOtherShapes(g: SKRSContext2D, area: ImageRegion): void {
  const pixels = g.getImageData(area.x, area.y, area.width, area.height);
  const ink = new Uint8Array(area.width * area.height);
  for (let i = 0; i < ink.length; i += 1) ink[i] = isInk(pixels.data, i * 4) ? 1 : 0;
  const labels = new Int32Array(ink.length);
  const shapes = lowGlyphSpans(ink, area.width, area.height, 0, labels);
  const glyph = shapes.reduce((most, shape, n) => (shape.pixels > shapes[most]!.pixels ? n : most), 0);
  const cut = new Set(
    shapes.flatMap((shape, n) =>
      n !== glyph && (shape.left === 0 || shape.right === area.width - 1) ? [n + 1] : [],
    ),
  );
  if (cut.size === 0) return;
  for (let i = 0; i < labels.length; i += 1) if (cut.has(labels[i]!)) pixels.data.fill(255, i * 4, i * 4 + 3);
  g.putImageData(pixels, area.x, area.y);
}

/**
 * The raised cents: two digits, "¢", or three where a decimal comma was read as "1" ("149" for
 * ",49"). Anything else is a misreading of two small digits in the raised part's empty height
 * ("929" for "99", "9" for "79" in a bold condensed face): read again from the rows that hold
 * their ink, then, when the part shows two glyphs, with them drawn apart; taken when that gives
 * two digits.
 */
async function readRaised(
  page: PageReading,
  region: ImageRegion,
): Promise<{ text: string; confidence: number }> {
  const { worker, picture } = page;
  const reading = await readDigits(worker, picture, region);
  if (/^(?:1?\d\d|¢)$/.test(reading.text) || page.rereads <= 0) return reading;
  page.rereads -= 1;
  const again = await readDigits(worker, picture, inkRows(picture, region));
  if (/^\d\d$/.test(again.text)) return again;
  // Two digits set close ("99" read "929" both times): drawn apart, each reads alone.
  const raised = raisedGlyphs(picture, region);
  if (!raised || page.rereads <= 0) return reading;
  page.rereads -= 1;
  const apart = drawnApart(picture, raised.rows, raised.glyphs, raised.rows.y);
  const split = await readDigits(worker, apart, { x: 0, y: 0, width: apart.width, height: apart.height });
  return /^\d\d$/.test(split.text) ? split : reading;
}

/**
 * The raised part's two digits, side by side: its ink shapes of about one height (specks aside), on
 * the same rows, neither reaching its top or bottom row; with the rows they span (a sixth of their
 * height above and below), so that they are read at the reader's height. A part whose region cut
 * through its digits (the "4" of "⁴⁹" in two pieces, one over the other) shows none: drawn apart,
 * such pieces read as other digits.
 */
function raisedGlyphs(
  picture: Image | Canvas,
  region: ImageRegion,
): { glyphs: GlyphColumns[]; rows: ImageRegion } | undefined {
  const shapes = lowGlyphSpans(inkOf(picture, region), region.width, region.height, 0);
  const tall = (g: { top: number; bottom: number }) => g.bottom - g.top + 1;
  // A loop, not a spread: a hostile picture's raised part may hold more specks than a call takes.
  const tallest = shapes.reduce((most, g) => Math.max(most, tall(g)), 0);
  const glyphs = shapes.filter((g) => tall(g) >= tallest * 0.8).sort((a, b) => a.left - b.left);
  const [first, second] = glyphs;
  if (glyphs.length !== 2 || !first || !second) return undefined;
  const whole = (g: { top: number; bottom: number }) => g.top > 0 && g.bottom < region.height - 1;
  const sideBySide = second.top < first.bottom && second.bottom > first.top;
  if (!whole(first) || !whole(second) || !sideBySide) return undefined;
  const rows = rowsAround(region, Math.min(first.top, second.top), Math.max(first.bottom, second.bottom));
  const columns = glyphs.map((g) => ({
    left: region.x + g.left,
    right: region.x + g.right,
    top: region.y + g.top,
  }));
  return { glyphs: columns, rows };
}

/** How far below a region its digits may reach, as a share of its height. */
const MAX_FOOT = 0.5;

/**
 * The region taken down to the foot of the digits it cuts. A region comes from whole-page OCR's
 * box, which may end above the baseline of a big digit ("$3⁵⁰": the foot of the 3 cut off), and a
 * digit without its foot reads as nothing, the price as OCR's misreading ("9.50"). A shape that
 * starts in the region's upper part, crosses its last row and ends within MAX_FOOT of its height
 * below is such a digit; a tile's frame (wider than the region is tall) or a picture (reaching
 * further down) is not followed.
 */
function toGlyphsFoot(picture: Image | Canvas, region: ImageRegion): ImageRegion {
  const below = Math.min(Math.round(region.height * MAX_FOOT), picture.height - region.y - region.height);
  if (region.width < 4 || region.height < 8 || below < 1) return region;
  const { width, height } = region;
  const band = { ...region, height: height + below };
  const cut = lowGlyphSpans(inkOf(picture, band), width, band.height, height - 1).filter(
    (shape) =>
      shape.top < height * 0.6 &&
      shape.bottom >= height &&
      shape.bottom < band.height - 1 &&
      shape.right - shape.left < height,
  );
  if (cut.length === 0) return region;
  const foot = Math.max(...cut.map((shape) => shape.bottom));
  return { ...region, height: Math.min(band.height, foot + 3) };
}

/** The region cut to the rows that hold ink, with a margin of a sixth of their height. */
function inkRows(picture: Image | Canvas, region: ImageRegion): ImageRegion {
  const { width, height } = region;
  const ink = inkOf(picture, region);
  const rows: number[] = [];
  for (let y = 0; y < height; y += 1) if (ink.subarray(y * width, (y + 1) * width).includes(1)) rows.push(y);
  if (rows.length === 0) return region;
  return rowsAround(region, rows[0]!, rows[rows.length - 1]!);
}

/** The region cut to rows `top`–`bottom` (its own rows), with a margin of a sixth of their height. */
function rowsAround(region: ImageRegion, top: number, bottom: number): ImageRegion {
  const margin = Math.round((bottom - top + 1) / 6);
  const from = Math.max(0, top - margin);
  return { ...region, y: region.y + from, height: Math.min(region.height - 1, bottom + margin) - from + 1 };
}

/** The region's pixels as ink (1) or ground (0), row by row. */
function inkOf(picture: Image | Canvas, region: ImageRegion): Uint8Array {
  const { width, height } = region;
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.drawImage(picture, region.x, region.y, width, height, 0, 0, width, height);
  const pixels = g.getImageData(0, 0, width, height).data;
  const ink = new Uint8Array(width * height);
  for (let i = 0; i < ink.length; i += 1) ink[i] = isInk(pixels, i * 4) ? 1 : 0;
  return ink;
}

/**
 * Columns of the region: the tall part is the first run of columns of glyphs that reach low down
 * (digits closer than a third of the height belong together); the raised part is the ink after
 * it, up to the next such column (a unit printed on the baseline, "kg", "/lb", is not cents). A
 * glyph spans all its columns: the top bar of a "7" reaches past its foot, and cut there the 7
 * reads as "1" and its bar as a "1" before the cents.
 */
function inkProfile(
  picture: Image | Canvas,
  region: ImageRegion,
): { tallStart: number; tallEnd: number; inkEnd: number; tallGlyphs: GlyphColumns[]; raisedTop: number } {
  const { width, height } = region;
  const ink = inkOf(picture, region);
  const inked = Array.from({ length: width }, (_, x) => {
    for (let y = 0; y < height; y += 1) if (ink[y * width + x]) return true;
    return false;
  });
  const low = new Array<boolean>(width).fill(false);
  const reaching = lowGlyphSpans(ink, width, height, Math.floor(height * LOW_BAND));
  // A raised sign ("$³⁷⁹") dips into the low band of a deep region: the digits stand on the
  // baseline, where most tall shapes end ("/" and "$" of "4/$16" reach below it). A shape the
  // region's edge cuts (a frame's side) stands on none.
  const standing = reaching
    .filter((g) => g.bottom - g.top + 1 >= height * 0.4 && g.bottom < height - 1)
    .map((g) => g.bottom)
    .sort((a, b) => a - b);
  const baseline = standing[Math.floor(standing.length / 2)] ?? -1;
  // A shape through the region's whole height is a tile's frame, not a digit ("12.99" for "$2⁹⁹").
  const spans = reaching.filter(
    (g) => g.bottom >= baseline - height * 0.1 && !(g.top === 0 && g.bottom === height - 1),
  );
  // A small sign set on the digits' baseline before them ("€4,⁹⁹", "R$7,⁶⁵") is no digit: read with
  // them, the whole part was "14" or ",". Where no shape is digit-high, nothing is left out.
  const isDigitHigh = (g: { top: number; bottom: number }) => g.bottom - g.top + 1 >= height * 0.4;
  const digitHighFrom = spans.filter(isDigitHigh).reduce((left, g) => Math.min(left, g.left), width);
  const firstDigit = digitHighFrom === width ? 0 : digitHighFrom;
  const topInk = firstInkRows(ink, width, height);
  for (const glyph of spans) {
    if (glyph.right < firstDigit || (!isDigitHigh(glyph) && underInk(topInk, height, glyph))) continue;
    for (let x = glyph.left; x <= glyph.right; x += 1) low[x] = true;
  }
  const tallStart = low.indexOf(true);
  if (tallStart < 0) return { tallStart: -1, tallEnd: -1, inkEnd: -1, tallGlyphs: [], raisedTop: -1 };
  const maxGap = height * 0.35;
  let tallEnd = tallStart;
  for (let x = tallStart + 1; x < width && x - tallEnd <= maxGap; x += 1) if (low[x]) tallEnd = x;
  let inkEnd = tallEnd;
  for (let x = tallEnd + 1; x < width && !low[x]; x += 1) if (inked[x]) inkEnd = x;
  // Digits, not a comma or a speck: shapes at least two fifths of the region's height.
  const tallGlyphs = spans
    .filter((g) => g.left >= tallStart && g.right <= tallEnd && isDigitHigh(g))
    .map((g) => ({ left: region.x + g.left, right: region.x + g.right, top: region.y + g.top }))
    .sort((a, b) => a.left - b.left);
  // The first row of ink over the raised part (picture pixels).
  let raisedTop = height;
  for (let x = tallEnd + 1; x <= inkEnd; x += 1) raisedTop = Math.min(raisedTop, topInk[x]!);
  return { tallStart, tallEnd, inkEnd, tallGlyphs, raisedTop: region.y + raisedTop };
}

/**
 * A small shape on the baseline with ink over it, or right beside ink over it: a line set under the
 * raised cents ("€ 16,14 al kg" under the "⁴⁹" of "11,⁴⁹", its comma under the gap between them),
 * or a mark under a digit's bar. It stands on the digits' baseline without being one: counted as
 * one, it made the cents part of the tall digits ("11.2." for "11,⁴⁹"). `topInk`: each column's
 * first row of ink (a hostile region's thousands of specks are each looked at once).
 */
function underInk(
  topInk: Int32Array,
  height: number,
  shape: { left: number; right: number; top: number },
): boolean {
  const reach = Math.max(2, Math.round(height * 0.05));
  const right = Math.min(topInk.length - 1, shape.right + reach);
  for (let x = Math.max(0, shape.left - reach); x <= right; x += 1)
    if (topInk[x]! < shape.top - 1) return true;
  return false;
}

/** Each column's first row of ink (`height` where it has none). */
function firstInkRows(ink: Uint8Array, width: number, height: number): Int32Array {
  const rows = new Int32Array(width).fill(height);
  for (let x = 0; x < width; x += 1)
    for (let y = 0; y < height; y += 1)
      if (ink[y * width + x]) {
        rows[x] = y;
        break;
      }
  return rows;
}

/**
 * The column spans of the 4-connected ink shapes that have a pixel at or below row `lowFrom`, with
 * how many pixels each holds; `labels`, when given, takes each such shape's pixels' number in the
 * list plus one.
 */
function lowGlyphSpans(
  ink: Uint8Array,
  width: number,
  height: number,
  lowFrom: number,
  labels?: Int32Array,
): InkShape[] {
  const seen = new Uint8Array(ink.length);
  const spans: InkShape[] = [];
  const stack: number[] = [];
  for (let start = lowFrom * width; start < ink.length; start += 1) {
    if (!ink[start] || seen[start]) continue;
    let left = width;
    let right = 0;
    let top = height;
    let bottom = 0;
    let pixels = 0;
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      pixels += 1;
      if (labels) labels[i] = spans.length + 1;
      const x = i % width;
      const y = (i - x) / width;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
        if (j < 0 || j >= ink.length || !ink[j] || seen[j]) continue;
        seen[j] = 1;
        stack.push(j);
      }
    }
    spans.push({ left, right, top, bottom, pixels });
  }
  return spans;
}

/** `from`: the row (picture pixels) above which the region is read as blank. */
async function readDigits(
  worker: Worker,
  picture: Image | Canvas,
  region: ImageRegion,
  from = region.y,
): Promise<{ text: string; confidence: number }> {
  const scale = GLYPH_HEIGHT / region.height;
  const pad = 12;
  const canvas = createCanvas(
    Math.max(1, Math.round(region.width * scale)) + 2 * pad,
    GLYPH_HEIGHT + 2 * pad,
  );
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.drawImage(
    picture,
    region.x,
    region.y,
    region.width,
    region.height,
    pad,
    pad,
    region.width * scale,
    GLYPH_HEIGHT,
  );
  if (from > region.y) g.fillRect(0, 0, canvas.width, pad + (from - region.y) * scale);
  const result = await worker.recognize(canvas.toBuffer('image/png'), {}, { blocks: true, text: true });
  return { text: result.data.text.replace(/\s+/g, ''), confidence: glyphsConfidence(result.data) };
}

/**
 * How sure the reading is: the mean of its glyphs'. tesseract's own figure for the line drops to 0
 * when one glyph is unsure: a display price's last digit beside its currency sign reads right at 0
 * ("2,99 €": 99, 98, 98, 0), and every such price counted as unread, its offer unlisted.
 */
function glyphsConfidence(page: Page): number {
  const symbols = (page.blocks ?? []).flatMap((block) =>
    block.paragraphs.flatMap((paragraph) =>
      paragraph.lines.flatMap((line) => line.words.flatMap((word) => word.symbols)),
    ),
  );
  if (symbols.length === 0) return page.confidence / 100;
  return symbols.reduce((sum, symbol) => sum + symbol.confidence, 0) / symbols.length / 100;
}

function clamp(region: ImageRegion, picture: Image): ImageRegion {
  const x = Math.max(0, Math.round(region.x));
  const y = Math.max(0, Math.round(region.y));
  return {
    x,
    y,
    width: Math.max(0, Math.min(picture.width - x, Math.round(region.width))),
    height: Math.max(0, Math.min(picture.height - y, Math.round(region.height))),
  };
}
