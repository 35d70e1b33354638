import { createCanvas, loadImage, type Image } from '@napi-rs/canvas';
import type { Worker } from 'tesseract.js';
import type { ImageRegion, PriceGlyphs } from './ocr.ts';

/** Ink is darker than this (0–255 luma): prices are printed dark or saturated on light tiles. */
const INK = 150;
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
  const picture = await loadImage(image);
  const out: Array<PriceGlyphs | undefined> = [];
  for (const region of regions) out.push(await readOne(worker, picture, clamp(region, picture)));
  return out;
}

async function readOne(
  worker: Worker,
  picture: Image,
  region: ImageRegion,
): Promise<PriceGlyphs | undefined> {
  if (region.width < 4 || region.height < 8) return undefined;
  const { tallEnd, inkEnd } = inkProfile(picture, region);
  if (tallEnd < 0) return undefined;
  const whole = await readDigits(worker, picture, { ...region, width: tallEnd + 2 });
  const raisedWidth = inkEnd - tallEnd - 1;
  const raised =
    raisedWidth >= region.height * 0.15
      ? await readDigits(worker, picture, {
          x: region.x + tallEnd + 2,
          y: region.y,
          width: raisedWidth,
          height: Math.round(region.height * LOW_BAND),
        })
      : '';
  return { whole, raised, right: region.x + inkEnd };
}

function inkProfile(picture: Image, region: ImageRegion): { tallEnd: number; inkEnd: number } {
  const canvas = createCanvas(region.width, region.height);
  const g = canvas.getContext('2d');
  g.drawImage(picture, region.x, region.y, region.width, region.height, 0, 0, region.width, region.height);
  const pixels = g.getImageData(0, 0, region.width, region.height).data;
  let tallEnd = -1;
  let inkEnd = -1;
  const lowFrom = Math.floor(region.height * LOW_BAND);
  for (let x = 0; x < region.width; x += 1) {
    for (let y = 0; y < region.height; y += 1) {
      const i = (y * region.width + x) * 4;
      const luma = pixels[i]! * 0.3 + pixels[i + 1]! * 0.59 + pixels[i + 2]! * 0.11;
      if (luma >= INK) continue;
      inkEnd = x;
      if (y >= lowFrom) tallEnd = x;
    }
  }
  return { tallEnd, inkEnd };
}

async function readDigits(worker: Worker, picture: Image, region: ImageRegion): Promise<string> {
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
  const result = await worker.recognize(canvas.toBuffer('image/png'));
  return result.data.text.replace(/\s+/g, '');
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
