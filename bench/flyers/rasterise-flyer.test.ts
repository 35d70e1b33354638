import { describe, expect, it } from 'vitest';
import { rowFlyer } from '../../test/support/flyers.ts';
import { UnpdfReader } from '../../src/providers/pdf/unpdf-reader.ts';
import { rasteriseFlyer } from './rasterise-flyer.ts';

const labels = { file: 'row.pdf', pages_labelled: [1], offers: [] };

describe('flyers rasterised for the OCR path', () => {
  it('draws each page to one picture of the page, with no text layer', async () => {
    const flyer = await rasteriseFlyer((await rowFlyer()).bytes, labels, { dpi: 100, quality: 85 });
    const doc = await new UnpdfReader().open(flyer!.pdf);
    const page = await doc.page(1);
    const [picture, ...others] = await doc.images(1);
    expect(page.items).toEqual([]);
    expect(others).toEqual([]);
    expect(picture!.width).toBe(Math.round((page.width * 100) / 72));
    expect(picture!.channels).toBe(3);
    await doc.close();
  });

  it('draws a black-and-white scan (--bilevel): a 1-bit picture, ink and paper only', async () => {
    const flyer = await rasteriseFlyer((await rowFlyer()).bytes, labels, {
      dpi: 100,
      quality: 85,
      bilevel: true,
    });
    expect(flyer!.labels.rasterised).toMatchObject({ dpi: 100, bilevel: true });
    const doc = await new UnpdfReader().open(flyer!.pdf);
    const [picture] = await doc.images(1);
    expect(picture!.channels).toBe(1);
    expect(picture!.data.every((v) => v === 0 || v === 255)).toBe(true);
    const ink = picture!.data.filter((v) => v === 0).length / picture!.data.length;
    expect(ink).toBeGreaterThan(0.001);
    expect(ink).toBeLessThan(0.5);
    await doc.close();
  });

  it('turns each page a quarter clockwise (--quarter-turns 1): a landscape sheet, the picture on its side', async () => {
    const source = await rowFlyer();
    const upright = await new UnpdfReader().open(source.bytes);
    const { width, height } = await upright.page(1);
    await upright.close();
    const flyer = await rasteriseFlyer(source.bytes, labels, { dpi: 72, quality: 85, quarterTurns: 1 });
    const doc = await new UnpdfReader().open(flyer!.pdf);
    const page = await doc.page(1);
    const [picture] = await doc.images(1);
    expect([page.width, page.height]).toEqual([height, width]);
    expect([picture!.width, picture!.height]).toEqual([Math.round(height), Math.round(width)]);
    await doc.close();
  });

  it('lights each page unevenly (--shade 0.5): its far corner half as bright as the near one', async () => {
    const flyer = await rasteriseFlyer((await rowFlyer()).bytes, labels, {
      dpi: 72,
      quality: 95,
      shade: 0.5,
    });
    expect(flyer!.labels.rasterised).toMatchObject({ shade: 0.5 });
    const doc = await new UnpdfReader().open(flyer!.pdf);
    const [picture] = await doc.images(1);
    const { width, height, channels, data } = picture!;
    const at = (x: number, y: number) => data[(y * width + x) * channels]!;
    expect(at(2, 2)).toBeGreaterThan(245);
    expect(at(width - 3, height - 3)).toBeGreaterThan(115);
    expect(at(width - 3, height - 3)).toBeLessThan(140);
    await doc.close();
  });
});
