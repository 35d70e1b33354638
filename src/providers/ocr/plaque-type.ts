import { createCanvas, type Canvas, type Image } from '@napi-rs/canvas';
import { isInk } from './ink.ts';
import type { ImageRegion } from './ocr.ts';

/** A plaque spans at least this share of a price region's width and of its height… */
const PLAQUE_SPAN = 0.6;
/** …and fills at least this share of its own box (white digits are holes in it). */
const PLAQUE_FILL = 0.6;
/** A row of the region with less ink than this share of its width is the page over or under the plaque. */
const PAGE_ROW = 0.15;

/** An ink shape of a region: its box (region pixels) and how many pixels it holds. */
export interface InkShape {
  left: number;
  right: number;
  top: number;
  bottom: number;
  pixels: number;
}

/**
 * A price region of more pixels is no price tile's (the largest read on real flyers hold ~60,000):
 * a hostile picture's page-sized regions of specks on a plaque are not drawn and read again as such.
 */
const MAX_PLAQUE_PIXELS = 250_000;

/**
 * Whether the region may be a plaque: no larger than a price tile, and with ink enough for one
 * (PLAQUE_FILL of a box PLAQUE_SPAN of its width and height). Most price regions are not, and are
 * not cut into shapes to look for one.
 */
export function mayHoldPlaque(ink: Uint8Array): boolean {
  if (ink.length > MAX_PLAQUE_PIXELS) return false;
  let inked = 0;
  for (const pixel of ink) inked += pixel;
  return inked >= ink.length * PLAQUE_SPAN * PLAQUE_SPAN * PLAQUE_FILL;
}

/** A plaque's type drawn dark on white, on a canvas whose top left corner is (`x`, `y`) of the page. */
export interface PlaqueDrawing {
  picture: Canvas;
  x: number;
  y: number;
}

/**
 * White type on a coloured plaque (a red price tile) in `region`, drawn dark on white, so that the
 * digit reader, which finds digits as ink, finds its digits and not the plaque as one shape; or
 * undefined when no plaque fills the region. The drawing covers the region and `below` rows under
 * it (where the digits' feet may be); the page beside, over and under the plaque is left white.
 * `ink`: the region's ink; `shapes`: its ink shapes.
 */
export function plaqueType(
  picture: Image,
  region: ImageRegion,
  ink: Uint8Array,
  shapes: readonly InkShape[],
  below: number,
): PlaqueDrawing | undefined {
  const plaque = shapes.find(
    (s) =>
      s.right - s.left + 1 >= region.width * PLAQUE_SPAN &&
      s.bottom - s.top + 1 >= region.height * PLAQUE_SPAN &&
      s.pixels >= (s.right - s.left + 1) * (s.bottom - s.top + 1) * PLAQUE_FILL,
  );
  if (!plaque) return undefined;
  const { top, bottom } = plaqueRows(ink, region);
  const height = Math.min(picture.height - region.y, region.height + below);
  // A plaque that reaches the region's foot may go on under it.
  const last = bottom === region.height - 1 ? height - 1 : bottom;
  const canvas = createCanvas(region.width, height);
  const g = canvas.getContext('2d');
  g.drawImage(picture, region.x, region.y, region.width, height, 0, 0, region.width, height);
  const pixels = g.getImageData(0, 0, region.width, height);
  const data = pixels.data;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < region.width; x += 1) {
      const i = (y * region.width + x) * 4;
      const onPlaque = y >= top && y <= last && x >= plaque.left && x <= plaque.right;
      const value = onPlaque && !isInk(data, i) ? 0 : 255;
      data[i] = value;
      data[i + 1] = value;
      data[i + 2] = value;
      data[i + 3] = 255;
    }
  }
  g.putImageData(pixels, 0, 0);
  return { picture: canvas, x: region.x, y: region.y };
}

/** The region's rows from its first to its last that is not nearly all page. */
function plaqueRows(ink: Uint8Array, region: ImageRegion): { top: number; bottom: number } {
  const { width, height } = region;
  const inked = (y: number) => {
    let n = 0;
    for (let x = 0; x < width; x += 1) n += ink[y * width + x]!;
    return n >= width * PAGE_ROW;
  };
  let top = 0;
  while (top < height - 1 && !inked(top)) top += 1;
  let bottom = height - 1;
  while (bottom > top && !inked(bottom)) bottom -= 1;
  return { top, bottom };
}
