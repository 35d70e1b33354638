import { createCanvas, type Image } from '@napi-rs/canvas';
import { decodedPicture, scaledRgba } from './picture.ts';
import { pngOf } from './png.ts';
import type { LevelledPicture } from './ocr.ts';
import { otsu } from './text-isolation.ts';

/** The page is looked at this wide for its skew: lines of type stay lines, and it costs ~20 ms. */
const SKEW_WIDTH = 800;
/** Angles tried, in degrees either way: a scan laid crooked on the glass, not a turned page. */
const MAX_SKEW_DEGREES = 5;
const SKEW_STEP_DEGREES = 0.1;
const COARSE_STEP_DEGREES = 0.5;
/** Ink pixels looked at, at most: enough for a page's lines, bounded for a page of dark ground. */
const MAX_INK = 150_000;
/**
 * Lines this far off level (degrees) or more are levelled. Below it the line detector's boxes hold
 * a line each and tesseract levels its own reading: they lie as straight as they were printed.
 */
const MIN_SKEW_DEGREES = 0.3;
/**
 * From this angle on the picture itself is turned level; below it the words are read off the scan
 * as it is and only their places are levelled. A turn resamples every pixel, which costs small type
 * more than a slight skew does; further off, the detector's boxes of long lines take in their
 * neighbours' type. The real flyers rasterised crooked (offers of 188 read right): 0.5° off, 108 as
 * scanned, 112 with the places levelled, 96 turned; 0.7° off, 85, 93 and 101; 1.5° off, 83, 88 and
 * 105.
 */
const TURN_SKEW_DEGREES = 0.6;

function round(degrees: number): number {
  return Math.round(degrees / SKEW_STEP_DEGREES) * SKEW_STEP_DEGREES;
}

export interface SkewEstimate {
  /** Degrees the type's lines go down to the right (image pixels: a page laid turned clockwise). */
  degrees: number;
  /** How much sharper the rows' profile is at that angle than level (1: no better). */
  gain: number;
}

/**
 * The angle a scanned page's lines of type lie at: the one whose rows' ink profile is sharpest (the
 * sum of its squared row counts, ink pixels sheared by the angle), as scanners' deskewing does. Dark
 * pixels by Otsu's cut of the page's grey levels are the ink; photos add ink at every angle alike.
 */
export function estimateSkew(picture: Image): SkewEstimate {
  const { width, height, rgba } = scaledRgba(picture, Math.min(1, SKEW_WIDTH / picture.width));
  const grey = new Uint8Array(width * height);
  const histogram = new Uint32Array(256);
  for (let i = 0; i < grey.length; i += 1) {
    const level = (rgba[i * 4]! * 299 + rgba[i * 4 + 1]! * 587 + rgba[i * 4 + 2]! * 114) / 1000;
    grey[i] = level;
    histogram[grey[i]!]! += 1;
  }
  const cut = otsu(histogram, grey.length);
  let count = 0;
  for (let i = 0; i < grey.length; i += 1) if (grey[i]! <= cut) count += 1;
  // Every ink pixel up to MAX_INK, evenly spread beyond: a dark page holds millions.
  const stride = Math.max(1, Math.ceil(count / MAX_INK));
  const xs = new Float32Array(Math.ceil(count / stride));
  const ys = new Float32Array(xs.length);
  let n = 0;
  for (let i = 0, seen = 0; i < grey.length && n < xs.length; i += 1) {
    if (grey[i]! > cut) continue;
    if (seen++ % stride !== 0) continue;
    xs[n] = (i % width) - width / 2;
    ys[n] = Math.floor(i / width);
    n += 1;
  }
  const sharpness = (degrees: number): number => {
    const slope = Math.tan((degrees * Math.PI) / 180);
    const margin = Math.ceil(Math.abs(slope) * width);
    const rows = new Float64Array(height + 2 * margin + 2);
    for (let i = 0; i < n; i += 1) rows[Math.round(ys[i]! - xs[i]! * slope) + margin]! += 1;
    let sum = 0;
    for (const c of rows) sum += c * c;
    return sum;
  };
  const level = sharpness(0);
  if (level === 0) return { degrees: 0, gain: 1 };
  let best = { degrees: 0, gain: 1 };
  const consider = (degrees: number) => {
    const gain = sharpness(degrees) / level;
    if (gain > best.gain) best = { degrees, gain };
  };
  // Coarse steps first, then the fine ones around the best of them.
  for (let d = -MAX_SKEW_DEGREES; d <= MAX_SKEW_DEGREES + 1e-9; d += COARSE_STEP_DEGREES) consider(round(d));
  const around = best.degrees;
  for (
    let d = around - COARSE_STEP_DEGREES;
    d <= around + COARSE_STEP_DEGREES + 1e-9;
    d += SKEW_STEP_DEGREES
  ) {
    consider(round(d));
  }
  return best;
}

/**
 * What to read for a picture whose lines of type may lie crooked (a paper flyer scanned so): the
 * picture turned level about its centre when they lie TURN_SKEW_DEGREES off or more (smoothed; the
 * uncovered corners white, as paper is), else the same buffer; and `slope`, how far down the lines go a pixel to
 * the right in what is read (0 but between MIN_SKEW_DEGREES and TURN_SKEW_DEGREES), by
 * which its words' places are levelled (`LevelledPicture`). Boxes stay within a fiftieth of the
 * page's size of the scan's own.
 */
export async function levelled(image: Buffer): Promise<LevelledPicture> {
  const picture = await decodedPicture(image);
  const { degrees } = estimateSkew(picture);
  const off = Math.abs(degrees) + 1e-9;
  if (off < MIN_SKEW_DEGREES) return { png: image, slope: 0 };
  if (off < TURN_SKEW_DEGREES) return { png: image, slope: Math.tan((degrees * Math.PI) / 180) };
  const { width, height } = picture;
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, width, height);
  g.imageSmoothingEnabled = true;
  g.imageSmoothingQuality = 'high';
  g.translate(width / 2, height / 2);
  g.rotate((-degrees * Math.PI) / 180);
  g.translate(-width / 2, -height / 2);
  g.drawImage(picture, 0, 0);
  return { png: pngOf(canvas), slope: 0 };
}

/** The picture turned `degrees` clockwise, a multiple of 90 (a quarter turn swaps its sides). */
export async function quarterTurned(image: Buffer, degrees: 90 | 180 | 270): Promise<Buffer> {
  const picture = await decodedPicture(image);
  const sideways = degrees !== 180;
  const [width, height] = sideways ? [picture.height, picture.width] : [picture.width, picture.height];
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.translate(width / 2, height / 2);
  g.rotate((degrees * Math.PI) / 180);
  g.drawImage(picture, -picture.width / 2, -picture.height / 2);
  return pngOf(canvas);
}
