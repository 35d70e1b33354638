import { readFileSync } from 'node:fs';
import { components, type Component } from './components.ts';
import { isInk } from './ink.ts';

/** A glyph's shape: its ink's share of each cell of a SHAPE_SIZE × SHAPE_SIZE grid over its box. */
export const SHAPE_SIZE = 12;

interface Template {
  digit: number;
  aspect: number;
  features: Float32Array;
}

/**
 * The numbers in a region (a line of print): display prices of Arabic-script flyers in
 * Arabic-Indic (٠–٩) or Persian (۰–۹) digits, which neither tesseract's Arabic and Persian models
 * nor PaddleOCR's Latin recogniser read ("٢٣.٥٤" came back as ".1.0"). Each digit is one patch of
 * ink; it is told by the nearest of the shapes the digits have in the Arabic faces of Debian's font
 * packages (`scripts/ocr/arabic-digit-templates.ts`). Zero (٠) is a small mark at mid-height, the
 * decimal point one on the baseline.
 */
export function readArabicIndicNumbers(
  rgba: Uint8ClampedArray,
  width: number,
  height: number,
): ArabicIndicNumber[] {
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i += 1) mask[i] = isInk(rgba, i * 4) ? 1 : 0;
  const patches = components(mask, width, height)
    .filter((c) => c.pixels >= 4)
    .sort((a, b) => a.left - b.left);
  if (patches.length > MAX_PATCHES) return [];
  const glyphs: Glyph[] = patches.map((c) => ({
    c,
    digit: boxHeight(c) >= height * MIN_DIGIT_SHARE ? nearestDigit(glyphShape(mask, width, c)) : undefined,
  }));
  return digitRuns(glyphs).flatMap((run) => {
    const read = readRun(run);
    return read ? [{ text: read.text, confidence: read.confidence, box: read.box }] : [];
  });
}

/** A number read, in Western digits ("9.29"), and where its ink is in the region. */
export interface ArabicIndicNumber {
  text: string;
  confidence: number;
  box: { left: number; top: number; right: number; bottom: number };
}

interface Glyph {
  c: Component;
  digit: { digit: number; confidence: number } | undefined;
}

interface Reading extends ArabicIndicNumber {
  digits: number;
}

/** More patches than a line of print holds: a photo's texture (or a hostile picture), not read. */
const MAX_PATCHES = 200;
/** A digit is at least this share of the region's height (regions are a price's line). */
const MIN_DIGIT_SHARE = 0.3;
/** Below this share of the digits' height a patch is a mark (٠, the point, a speck), not a digit. */
const MARK_SHARE = 0.6;
/** Digits of one number lie closer than this share of their height. */
const GAP = 0.46;
/** Nearest-shape distance above which a patch is not a digit (a letter of "درهم", a photo's edge). */
const MAX_DISTANCE = 15;
/** …and the nearest other digit's shape must be this much farther. */
const MIN_RATIO = 1.05;

/**
 * Runs of patches, left to right, that are digits or marks (under MARK_SHARE of the tallest
 * digit's height), cut at any other patch (a letter) and at wider gaps than digits leave: GAP ×
 * that height between two digits (a word space is wider), twice that beside the point.
 */
function digitRuns(glyphs: readonly Glyph[]): Glyph[][] {
  const digits = glyphs.filter((g) => g.digit);
  const digitHeight = Math.max(0, ...digits.map((g) => boxHeight(g.c)));
  const top = median(digits.map((g) => g.c.top));
  const baseline = median(digits.map((g) => g.c.bottom));
  const isMark = (g: Glyph) => boxHeight(g.c) < digitHeight * MARK_SHARE;
  // The point is set low and spaced generously; ٠ sits at mid-height and as close as any digit.
  const isPoint = (g: Glyph) =>
    isMark(g) && (g.c.top + g.c.bottom) / 2 - top >= (baseline - top) * POINT_FROM;
  const runs: Glyph[][] = [];
  let run: Glyph[] = [];
  let right = -Infinity;
  for (const glyph of glyphs) {
    const isPart = glyph.digit !== undefined || isMark(glyph);
    const last = run.at(-1);
    const limit = digitHeight * GAP * (last && (isPoint(last) || isPoint(glyph)) ? 2 : 1);
    if (!isPart || glyph.c.left - right > limit) {
      if (run.some((g) => g.digit)) runs.push(run);
      run = [];
    }
    if (isPart) run.push(glyph);
    right = Math.max(isPart ? right : -Infinity, glyph.c.right);
  }
  if (run.some((g) => g.digit)) runs.push(run);
  return runs;
}

/**
 * A run as a number: marks at mid-height are ٠, low ones the point. A letter or symbol that passed
 * for a digit at either end ("€" beside "٣,٥٠") is left out by taking the best-formed stretch:
 * a price with two decimals before a whole number, and more digits before fewer.
 */
function readRun(run: readonly Glyph[]): Reading | undefined {
  const digits = run.filter((g) => g.digit);
  const digitHeight = Math.max(...digits.map((g) => boxHeight(g.c)));
  const top = median(digits.map((g) => g.c.top));
  const baseline = median(digits.map((g) => g.c.bottom));
  const read = run.flatMap(({ c, digit }) => {
    if (digit && boxHeight(c) >= digitHeight * MARK_SHARE) {
      // Digits of one number stand on one baseline; a stroke of a photo's texture need not.
      if (Math.abs(c.bottom - baseline) > digitHeight * BASELINE_SLACK)
        return [{ text: '|', confidence: 0, c }];
      return [{ text: String(digit.digit), confidence: digit.confidence, c }];
    }
    const mark = smallMark(c, digitHeight, top, baseline);
    return mark ? [{ text: mark, confidence: 1, c }] : [];
  });
  let best: (Reading & { score: number }) | undefined;
  for (let from = 0; from < read.length; from += 1) {
    for (let to = from + 1; to <= read.length; to += 1) {
      const part = read.slice(from, to);
      const text = part.map((r) => r.text).join('');
      const form = /^\d{1,4}\.\d{2}$/.test(text) ? 2 : /^\d{1,4}$/.test(text) ? 1 : 0;
      // Bars and specks (a barcode, a photo's texture) read as ones and zeros: a number needs another
      // digit ("١٠.٠٠" is left to OCR).
      if (form === 0 || !/[2-9]/.test(text) || !evenHeights(part.map((r) => r.c))) continue;
      const digitCount = text.replace('.', '').length;
      const confidence = Math.min(...part.map((r) => r.confidence));
      const score = form * 100 + digitCount * 10 + confidence;
      if (!best || score > best.score)
        best = { text, confidence, box: boxOf(part.map((r) => r.c)), digits: digitCount, score };
    }
  }
  return best && { text: best.text, confidence: best.confidence, box: best.box, digits: best.digits };
}

/** How far (in the digits' height) a digit's foot may lie from the number's baseline. */
const BASELINE_SLACK = 0.15;
/** The tallest digit of a number is at most this many times the shortest (٥ is short in some faces). */
const MAX_HEIGHT_RATIO = 1.6;

function evenHeights(patches: readonly Component[]): boolean {
  const heights = patches.map(boxHeight);
  const tall = Math.max(...heights);
  return heights.filter((h) => h >= tall * MARK_SHARE).every((h) => h * MAX_HEIGHT_RATIO >= tall);
}

/** Where a mark's centre lies between the digits' tops (0) and their baseline (1) tells ٠ from the point. */
const POINT_FROM = 0.66;

/** '0' for a small mark at mid-height (٠), '.' for one low down, '' for a speck; else nothing. */
function smallMark(c: Component, digitHeight: number, top: number, baseline: number): string | undefined {
  const h = boxHeight(c);
  const w = c.right - c.left + 1;
  if (h >= digitHeight * MARK_SHARE || w > digitHeight * 0.5) return undefined;
  if (h < digitHeight * 0.08 && w < digitHeight * 0.08) return '';
  if (w > h * 2.5 || h > w * 3.5) return undefined;
  const centre = ((c.top + c.bottom) / 2 - top) / Math.max(1, baseline - top);
  // The point, the decimal comma (which reaches below the baseline) or the Arabic separator ٫.
  if (centre >= POINT_FROM && centre <= 1.25) return '.';
  if (centre >= 0.2 && centre < POINT_FROM) return '0';
  return undefined;
}

/** The nearest template's digit, sure by how much nearer it is than the nearest other digit's. */
function nearestDigit(shape: {
  aspect: number;
  shape: string;
}): { digit: number; confidence: number } | undefined {
  const features = edgeFeatures(shape.shape);
  const best = new Map<number, number>();
  for (const template of templates()) {
    let dot = 0;
    for (let i = 0; i < features.length; i += 1) dot += features[i]! * template.features[i]!;
    const d = SCALE * (1 - dot) + ASPECT_WEIGHT * Math.log(shape.aspect / template.aspect) ** 2;
    if (d < (best.get(template.digit) ?? Infinity)) best.set(template.digit, d);
  }
  const [first, second] = [...best.entries()].sort((a, b) => a[1] - b[1]);
  if (!first || first[1] > MAX_DISTANCE) return undefined;
  if (second && second[1] < first[1] * MIN_RATIO) return undefined;
  return { digit: first[0], confidence: second ? 1 - first[1] / second[1] : 1 };
}

const SCALE = 40;
/** A thin ١ and a wide ٧ differ first by their boxes' shape. */
const ASPECT_WEIGHT = 8;
/** Edge cells per side, and edge directions told apart. */
const EDGE_CELLS = 4;
const DIRECTIONS = 8;

/**
 * Where the glyph's edges run, and which way: the strength of each of DIRECTIONS edge directions
 * in each of EDGE_CELLS × EDGE_CELLS parts of its shape, as one unit vector. Edges are much the
 * same in a light and a bold face where ink shares are not.
 */
function edgeFeatures(shape: string): Float32Array {
  const n = SHAPE_SIZE;
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= n || y >= n ? 0 : Number(shape[y * n + x]));
  const out = new Float32Array(EDGE_CELLS * EDGE_CELLS * DIRECTIONS);
  const cellSide = n / EDGE_CELLS;
  for (let y = 0; y < n; y += 1) {
    for (let x = 0; x < n; x += 1) {
      const gx = at(x + 1, y) - at(x - 1, y);
      const gy = at(x, y + 1) - at(x, y - 1);
      const strength = Math.hypot(gx, gy);
      if (strength === 0) continue;
      const turn = ((Math.atan2(gy, gx) + Math.PI) / (2 * Math.PI)) * DIRECTIONS;
      const low = Math.floor(turn) % DIRECTIONS;
      const share = turn - Math.floor(turn);
      const cell = Math.floor(y / cellSide) * EDGE_CELLS + Math.floor(x / cellSide);
      out[cell * DIRECTIONS + low]! += strength * (1 - share);
      out[cell * DIRECTIONS + ((low + 1) % DIRECTIONS)]! += strength * share;
    }
  }
  const norm = Math.hypot(...out) || 1;
  for (let i = 0; i < out.length; i += 1) out[i]! /= norm;
  return out;
}

/**
 * The patch's box fitted, aspect kept, into a square of SHAPE_SIZE cells, each cell's share of ink
 * as one character '0'–'9'.
 */
export function glyphShape(mask: Uint8Array, width: number, c: Component): { aspect: number; shape: string } {
  const w = c.right - c.left + 1;
  const h = c.bottom - c.top + 1;
  const side = Math.max(w, h);
  const offsetX = (side - w) / 2;
  const offsetY = (side - h) / 2;
  const ink = new Float32Array(SHAPE_SIZE * SHAPE_SIZE);
  const area = new Float32Array(SHAPE_SIZE * SHAPE_SIZE);
  for (let y = 0; y < h; y += 1) {
    const row = Math.min(SHAPE_SIZE - 1, Math.floor(((y + offsetY) * SHAPE_SIZE) / side));
    for (let x = 0; x < w; x += 1) {
      const col = Math.min(SHAPE_SIZE - 1, Math.floor(((x + offsetX) * SHAPE_SIZE) / side));
      const cell = row * SHAPE_SIZE + col;
      area[cell]! += 1;
      ink[cell]! += mask[(c.top + y) * width + c.left + x]!;
    }
  }
  // Cells outside the box count as blank, over the area a cell of the square has.
  const cellArea = (side / SHAPE_SIZE) ** 2;
  let shape = '';
  for (let i = 0; i < ink.length; i += 1)
    shape += String(Math.min(9, Math.round((9 * ink[i]!) / Math.max(cellArea, area[i]!, 1))));
  return { aspect: w / h, shape };
}

let loaded: Template[] | undefined;

function templates(): Template[] {
  if (!loaded) {
    const file = new URL('./arabic-digit-templates.json', import.meta.url);
    const data = JSON.parse(readFileSync(file, 'utf8')) as {
      templates: Array<{ digit: number; aspect: number; shape: string }>;
    };
    loaded = data.templates.map((t) => ({
      digit: t.digit,
      aspect: t.aspect,
      features: edgeFeatures(t.shape),
    }));
  }
  return loaded;
}

function boxOf(patches: readonly Component[]): ArabicIndicNumber['box'] {
  return {
    left: Math.min(...patches.map((c) => c.left)),
    top: Math.min(...patches.map((c) => c.top)),
    right: Math.max(...patches.map((c) => c.right)),
    bottom: Math.max(...patches.map((c) => c.bottom)),
  };
}

const boxHeight = (c: Component) => c.bottom - c.top + 1;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
