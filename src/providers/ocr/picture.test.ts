import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { decodedPicture, scaledPng } from './picture.ts';

describe('decodedPicture', () => {
  it('decodes a buffer once however many steps look at it, and each buffer apart', async () => {
    const png = (colour: string) => {
      const canvas = createCanvas(4, 3);
      const g = canvas.getContext('2d');
      g.fillStyle = colour;
      g.fillRect(0, 0, 4, 3);
      return canvas.toBuffer('image/png');
    };
    const page = png('#c00');
    const first = await decodedPicture(page);
    expect(await decodedPicture(page)).toBe(first);
    expect(first).toMatchObject({ width: 4, height: 3 });
    expect(await decodedPicture(png('#00c'))).not.toBe(first);
  });
});

describe('scaledPng', () => {
  /** The RGBA pixels of a PNG, drawn on a canvas of its size. */
  async function pixelsOf(png: Buffer) {
    const picture = await decodedPicture(png);
    const canvas = createCanvas(picture.width, picture.height);
    canvas.getContext('2d').drawImage(picture, 0, 0);
    return {
      width: picture.width,
      height: picture.height,
      data: canvas.getContext('2d').getImageData(0, 0, picture.width, picture.height).data,
    };
  }

  it('averages the pixels each one covers, or interpolates them scaled up, grey, RGB or RGBA', async () => {
    // Columns of black and white, 40 × 20: at half the width, every pixel is a mid grey.
    const grey = new Uint8Array(40 * 20).map((_, i) => (i % 2 === 0 ? 0 : 255));
    const scaled = await pixelsOf(scaledPng({ width: 40, height: 20, channels: 1, data: grey }, 20));
    expect([scaled.width, scaled.height]).toEqual([20, 10]);
    const middle = (10 * 5 + 5) * 4;
    expect(scaled.data[middle]).toBeGreaterThan(100);
    expect(scaled.data[middle]).toBeLessThan(155);
    // Scaled up, the height in proportion and the grey between the columns' black and white.
    const up = await pixelsOf(scaledPng({ width: 40, height: 20, channels: 1, data: grey }, 100));
    expect([up.width, up.height]).toEqual([100, 50]);
    expect(new Set([...up.data].filter((_, i) => i % 4 === 0)).size).toBeGreaterThan(2);
    // Red in RGB, blue in RGBA, stay red and blue.
    const red = new Uint8Array(30 * 30 * 3).map((_, i) => (i % 3 === 0 ? 200 : 0));
    expect([
      ...(await pixelsOf(scaledPng({ width: 30, height: 30, channels: 3, data: red }, 10))).data.slice(0, 4),
    ]).toEqual([200, 0, 0, 255]);
    const blue = new Uint8ClampedArray(30 * 30 * 4).map((_, i) => (i % 4 === 2 || i % 4 === 3 ? 255 : 0));
    expect([
      ...(await pixelsOf(scaledPng({ width: 30, height: 30, channels: 4, data: blue }, 10))).data.slice(0, 4),
    ]).toEqual([0, 0, 255, 255]);
  });
});
