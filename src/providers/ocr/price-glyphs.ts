import { createCanvas, loadImage, type Image } from '@napi-rs/canvas';
import type { Worker } from 'tesseract.js';
import { isInk } from './ink.ts';
import type { ImageRegion, PriceGlyphs } from './ocr.ts';

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
  const { tallStart, tallEnd, inkEnd } = inkProfile(picture, region);
  if (tallEnd < 0) return undefined;
  // A raised sign before the digits ("R$", "$") stays out of the tall part.
  const from = Math.max(0, tallStart - 2);
  const whole = await readDigits(worker, picture, {
    ...region,
    x: region.x + from,
    width: tallEnd + 2 - from,
  });
  const raisedWidth = inkEnd - tallEnd - 1;
  const raised =
    raisedWidth >= region.height * 0.15
      ? await readDigits(worker, picture, {
          x: region.x + tallEnd + 2,
          y: region.y,
          width: raisedWidth,
          height: Math.round(region.height * LOW_BAND),
        })
      : { text: '', confidence: 1 };
  return {
    whole: whole.text,
    raised: raised.text,
    right: region.x + inkEnd,
    confidence: Math.min(whole.confidence, raised.confidence),
  };
}

/**
 * Columns of the region: the tall part is the first run of columns with ink low down (digits
 * closer than a third of the height belong together); the raised part is the ink after it, up to
 * the next column with ink low down (a unit printed on the baseline, "kg", "/lb", is not cents).
 */
function inkProfile(
  picture: Image,
  region: ImageRegion,
): { tallStart: number; tallEnd: number; inkEnd: number } {
  const canvas = createCanvas(region.width, region.height);
  const g = canvas.getContext('2d');
  g.drawImage(picture, region.x, region.y, region.width, region.height, 0, 0, region.width, region.height);
  const pixels = g.getImageData(0, 0, region.width, region.height).data;
  const lowFrom = Math.floor(region.height * LOW_BAND);
  const low: boolean[] = [];
  const inked: boolean[] = [];
  for (let x = 0; x < region.width; x += 1) {
    let any = false;
    let bottom = false;
    for (let y = 0; y < region.height; y += 1) {
      if (!isInk(pixels, (y * region.width + x) * 4)) continue;
      any = true;
      if (y >= lowFrom) bottom = true;
    }
    low.push(bottom);
    inked.push(any);
  }
  const tallStart = low.indexOf(true);
  if (tallStart < 0) return { tallStart: -1, tallEnd: -1, inkEnd: -1 };
  const maxGap = region.height * 0.35;
  let tallEnd = tallStart;
  for (let x = tallStart + 1; x < region.width && x - tallEnd <= maxGap; x += 1) if (low[x]) tallEnd = x;
  let inkEnd = tallEnd;
  for (let x = tallEnd + 1; x < region.width && !low[x]; x += 1) if (inked[x]) inkEnd = x;
  return { tallStart, tallEnd, inkEnd };
}

async function readDigits(
  worker: Worker,
  picture: Image,
  region: ImageRegion,
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
  const result = await worker.recognize(canvas.toBuffer('image/png'));
  return { text: result.data.text.replace(/\s+/g, ''), confidence: result.data.confidence / 100 };
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
