import { createCanvas, ImageData, loadImage, type Image } from '@napi-rs/canvas';
import { pngOf } from './png.ts';

const decoded = new WeakMap<Buffer, Promise<Image>>();

/**
 * The picture in `image` decoded once: a page is looked at by the line detector, the isolation of
 * its type, the price readers and the glyph-run search, and a flyer page's PNG takes ~40 ms to
 * decode each time. Held as long as the buffer is.
 */
export function decodedPicture(image: Buffer): Promise<Image> {
  let picture = decoded.get(image);
  if (!picture) {
    picture = loadImage(image);
    decoded.set(image, picture);
  }
  return picture;
}

/** The picture drawn at `scale` times its size (each side at least a pixel), as RGBA pixels. */
export function scaledRgba(
  picture: Image,
  scale: number,
): { width: number; height: number; rgba: Uint8ClampedArray } {
  const width = Math.max(1, Math.round(picture.width * scale));
  const height = Math.max(1, Math.round(picture.height * scale));
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.drawImage(picture, 0, 0, width, height);
  return { width, height, rgba: g.getImageData(0, 0, width, height).data };
}

/** Decoded pixels, row by row: 1 = grey, 3 = RGB, 4 = RGBA channels (as a PDF's images are). */
export interface Pixels {
  width: number;
  height: number;
  channels: 1 | 3 | 4;
  data: Uint8Array | Uint8ClampedArray;
}

/**
 * `pixels` scaled to `width` (the height in proportion), smoothed (down: each pixel the average of
 * those it covers; up: interpolated), as a PNG.
 */
export function scaledPng(pixels: Pixels, width: number): Buffer {
  const full = createCanvas(pixels.width, pixels.height);
  full.getContext('2d').putImageData(new ImageData(rgba(pixels), pixels.width, pixels.height), 0, 0);
  const height = Math.max(1, Math.round((pixels.height * width) / pixels.width));
  const scaled = createCanvas(width, height);
  const g = scaled.getContext('2d');
  g.imageSmoothingEnabled = true;
  g.imageSmoothingQuality = 'high';
  g.drawImage(full, 0, 0, width, height);
  return pngOf(scaled);
}

function rgba({ width, height, channels, data }: Pixels): Uint8ClampedArray {
  if (channels === 4) return new Uint8ClampedArray(data.buffer, data.byteOffset, width * height * 4);
  const out = new Uint8ClampedArray(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i += 1, j += channels) {
    out[i * 4] = data[j]!;
    out[i * 4 + 1] = data[channels === 1 ? j : j + 1]!;
    out[i * 4 + 2] = data[channels === 1 ? j : j + 2]!;
    out[i * 4 + 3] = 255;
  }
  return out;
}
