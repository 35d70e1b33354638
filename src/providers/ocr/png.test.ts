import { loadImage, createCanvas } from '@napi-rs/canvas';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressedPng, encodePng } from './png.ts';

/** A picture with some structure: a gradient and stripes (RGB). */
function pixels(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 3;
      data[i] = (x * 255) / width;
      data[i + 1] = y % 8 < 4 ? 0 : 255;
      data[i + 2] = 128;
    }
  return data;
}

async function decoded(png: Buffer): Promise<Uint8ClampedArray> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return canvas.getContext('2d').getImageData(0, 0, image.width, image.height).data;
}

describe('PNGs handed between the reader steps', () => {
  it('are stored (not compressed), and decode to the pixels they were made of', async () => {
    const [width, height] = [300, 200];
    const png = encodePng(width, height, 3, pixels(width, height));
    // Stored deflate blocks: the pixels' bytes, a filter byte a row, a few bytes a block.
    expect(png.length).toBeGreaterThan(width * height * 3);
    const rgba = await decoded(png);
    expect([rgba[0], rgba[1], rgba[2], rgba[3]]).toEqual([0, 0, 128, 255]);
    expect([...rgba.subarray((5 * width + 150) * 4, (5 * width + 150) * 4 + 3)]).toEqual([127, 255, 128]);
  });

  it('hold pictures of many stored blocks, checksums right, in every channel count', async () => {
    // 1,000 x 301 RGBA is 1.2 MB of rows: nineteen blocks, the last a part of one.
    for (const [width, height, channels] of [
      [1000, 301, 4],
      [333, 197, 3],
      [65534, 2, 1],
      [1, 1, 1],
    ] as const) {
      // Opaque where there is alpha: a canvas keeps colours premultiplied, so it rounds translucent ones.
      const data = Uint8ClampedArray.from({ length: width * height * channels }, (_, i) =>
        channels === 4 && i % 4 === 3 ? 255 : (i * 7919) % 251,
      );
      const png = encodePng(width, height, channels, data);
      expect(png.readUInt32BE(16)).toBe(width);
      // inflate checks the stream's Adler-32; the chunk's CRC is checked by the decoder below.
      const idatLength = png.readUInt32BE(33);
      const rows = inflateSync(png.subarray(41, 41 + idatLength));
      expect(rows.length).toBe((width * channels + 1) * height);
      for (let row = 0; row < height; row += 1) {
        const at = row * (width * channels + 1);
        expect(rows[at]).toBe(0);
        expect(
          rows
            .subarray(at + 1, at + 1 + width * channels)
            .equals(Buffer.from(data.subarray(row * width * channels, (row + 1) * width * channels))),
        ).toBe(true);
      }
      if (channels === 4 && width < 5000)
        expect(Buffer.from(await decoded(png)).equals(Buffer.from(data))).toBe(true);
    }
  });

  it('are compressed to leave the process, to the same pixels', async () => {
    const [width, height] = [300, 200];
    const stored = encodePng(width, height, 3, pixels(width, height));
    const compressed = compressedPng(stored);
    expect(compressed.length).toBeLessThan(stored.length / 10);
    expect(await decoded(compressed)).toEqual(await decoded(stored));
  });

  it('leaves what is not a PNG, or a cut one, as it is', () => {
    const notPng = Buffer.from('not a picture at all');
    expect(compressedPng(notPng)).toBe(notPng);
    const cut = encodePng(10, 10, 1, new Uint8Array(100)).subarray(0, 40);
    expect(compressedPng(cut)).toBe(cut);
  });
});
