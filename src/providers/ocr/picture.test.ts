import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { decodedPicture } from './picture.ts';

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
