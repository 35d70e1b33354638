import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { encodePng, pngOf } from './png.ts';
import { estimateSkew, levelled, quarterTurned } from './skew.ts';

/**
 * An A4 page at 150 dpi of rows of "words" (dark blocks of a line's height, as type is in the
 * large), a photo's noise beside them, turned by `degrees` about its centre as a crooked scan is.
 */
function page(degrees: number, { ground = '#ffffff', ink = '#111111' } = {}): Buffer {
  const canvas = createCanvas(1240, 1754);
  const g = canvas.getContext('2d');
  g.fillStyle = ground;
  g.fillRect(0, 0, 1240, 1754);
  g.translate(620, 877);
  g.rotate((degrees * Math.PI) / 180);
  g.translate(-620, -877);
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let y = 80; y < 1650; y += 36) {
    let x = 60;
    while (x < 1100) {
      const word = 30 + Math.floor(random() * 120);
      g.fillStyle = ink;
      g.fillRect(x, y, Math.min(word, 1180 - x), 18);
      x += word + 16;
    }
  }
  // A product photo: grey noise, the same at every angle.
  for (let i = 0; i < 20_000; i += 1) {
    const shade = Math.floor(random() * 255);
    g.fillStyle = `rgb(${shade},${shade},${shade})`;
    g.fillRect(700 + random() * 400, 300 + random() * 400, 3, 3);
  }
  return pngOf(canvas);
}

describe('skew of a scanned page', () => {
  it('finds no skew on a level page, which is read as it is (the same buffer, no slope)', async () => {
    const level = page(0);
    expect(estimateSkew(await loadImage(level)).degrees).toBe(0);
    expect(await levelled(level)).toEqual({ png: level, slope: 0 });
  });

  it.each([0.7, 1.2, -2, 4])(
    'finds the angle of a page scanned %s° off and turns it level',
    async (degrees) => {
      const crooked = page(degrees);
      expect(estimateSkew(await loadImage(crooked)).degrees).toBeCloseTo(degrees, 0.7);
      const { png, slope } = await levelled(crooked);
      expect(slope).toBe(0);
      expect(png).not.toBe(crooked);
      const image = await loadImage(png);
      expect([image.width, image.height]).toEqual([1240, 1754]);
      expect(Math.abs(estimateSkew(image).degrees)).toBeLessThanOrEqual(0.2);
    },
  );

  it.each([0.5, -0.4])(
    'reads a page %s° off as it was scanned (no resampling of small type), its words placed by the slope',
    async (degrees) => {
      const crooked = page(degrees);
      const { png, slope } = await levelled(crooked);
      expect(png).toBe(crooked);
      expect(slope).toBeCloseTo(Math.tan((degrees * Math.PI) / 180), 2.5);
    },
  );

  it('leaves a page a little off (under 0.3°) as it is: tesseract levels its own reading', async () => {
    const slight = page(0.2);
    expect(await levelled(slight)).toEqual({ png: slight, slope: 0 });
  });

  it('finds the angle of light type on a dark ground (ink taken evenly from millions of dark pixels)', async () => {
    const dark = page(-1.5, { ground: '#101820', ink: '#f0f0f0' });
    expect(estimateSkew(await loadImage(dark)).degrees).toBeCloseTo(-1.5, 0.7);
  });
});

describe('pictures turned by quarters', () => {
  /** Grey pixels all different (odd sides: a turn about the centre fell half a pixel off). */
  function numbered(width: number, height: number): Buffer {
    const data = Uint8ClampedArray.from({ length: width * height * 4 }, (_, i) =>
      i % 4 === 3 ? 255 : Math.floor(i / 4) % 251,
    );
    return encodePng(width, height, 4, data);
  }

  async function pixelsOf(png: Buffer): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
    const picture = await loadImage(png);
    const canvas = createCanvas(picture.width, picture.height);
    canvas.getContext('2d').drawImage(picture, 0, 0);
    const { data } = canvas.getContext('2d').getImageData(0, 0, picture.width, picture.height);
    return { width: picture.width, height: picture.height, data };
  }

  it('moves every pixel whole: no blur, and a turn and its inverse give the picture back', async () => {
    const [width, height] = [37, 23];
    const png = numbered(width, height);
    const original = await pixelsOf(png);
    const quarter = await pixelsOf(await quarterTurned(png, 90));
    expect([quarter.width, quarter.height]).toEqual([height, width]);
    // Clockwise: the top-left pixel goes to the top-right corner, the bottom-left to the top-left.
    expect(quarter.data[(height - 1) * 4]).toBe(original.data[0]);
    expect(quarter.data[0]).toBe(original.data[(height - 1) * width * 4]);
    const back = await pixelsOf(await quarterTurned(await quarterTurned(png, 90), 270));
    expect(Buffer.from(back.data).equals(Buffer.from(original.data))).toBe(true);
    const twice = await pixelsOf(await quarterTurned(await quarterTurned(png, 180), 180));
    expect(Buffer.from(twice.data).equals(Buffer.from(original.data))).toBe(true);
  });
});
