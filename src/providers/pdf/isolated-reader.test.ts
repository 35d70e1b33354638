import { describe, expect, it } from 'vitest';
import {
  contentBombPdf,
  hugeImagePdf,
  manyMasksPdf,
  manyPagesPdf,
} from '../../../test/support/hostile-pdfs.ts';
import {
  blackAndWhiteScan,
  compactScan,
  IMAGE_PAGE_LINES,
  multiPageFlyer,
} from '../../../test/support/flyers.ts';
import { DEFAULT_PDF_LIMITS, IsolatedPdfReader, PdfLimitExceeded } from './isolated-reader.ts';

const limits = { ...DEFAULT_PDF_LIMITS, stepTimeoutMs: 20_000 };

describe('reading hostile PDFs in a bounded worker', () => {
  it('reads an ordinary flyer: text items and pages as the in-process reader does', async () => {
    const flyer = await multiPageFlyer(2, 'Plain');
    const doc = await new IsolatedPdfReader(limits).open(flyer.bytes);
    expect(doc.pageCount).toBe(2);
    const page = await doc.page(1);
    expect(page.items.length).toBeGreaterThan(0);
    await doc.close();
  });

  it('gives a black-and-white scan (a 1-bit image) as a grey picture of the page', async () => {
    // pdf.js hands 1-bit images over packed eight pixels a byte: the page looked as if it had none
    // and was drawn at 216 dpi instead of read as scanned.
    const doc = await new IsolatedPdfReader(limits).open(await blackAndWhiteScan(IMAGE_PAGE_LINES, 150));
    const [scan, ...others] = await doc.images(1);
    expect(others).toEqual([]);
    expect(scan).toMatchObject({ width: 1240, height: 1754, channels: 1 });
    const ink = scan!.data.filter((v) => v === 0).length;
    expect(scan!.data.every((v) => v === 0 || v === 255)).toBe(true);
    // White paper with the lines' ink on it (not inverted): a few per cent of the page is ink.
    expect(ink / scan!.data.length).toBeGreaterThan(0.002);
    expect(ink / scan!.data.length).toBeLessThan(0.1);
    // The first line's first letter ("W", from the top left margin) is ink where the font says.
    const dot = 3;
    const margin = 8 * dot;
    expect(scan!.data[margin * 1240 + margin]).toBe(0);
    expect(scan!.data[margin * 1240 + margin + dot]).toBe(255);
    await doc.close();
  });

  it("gives a compact scan's print (a stencil mask over a coarse picture) as a picture of its own", async () => {
    // Alone, the coarse picture of the paper had the page's shape and was read as the whole scan.
    const doc = await new IsolatedPdfReader(limits).open(await compactScan(IMAGE_PAGE_LINES, 150));
    const images = await doc.images(1);
    expect(images.map((i) => [i.width, i.height])).toEqual([
      [413, 585],
      [1240, 1754],
    ]);
    expect(images[1]!.channels).toBe(1);
    const print = images[1]!.data;
    const ink = print.filter((v) => v === 0).length / print.length;
    expect(ink).toBeGreaterThan(0.002);
    expect(ink).toBeLessThan(0.1);
    await doc.close();
  });

  it('refuses a flyer of 10,000 pages with a clear error', async () => {
    const bytes = await manyPagesPdf(10_000);
    const error = await new IsolatedPdfReader(limits).open(bytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PdfLimitExceeded);
    expect((error as Error).message).toMatch(/10000 pages; at most 100/);
  });

  it('never decodes a 30,000 × 30,000 image, and says so', async () => {
    const doc = await new IsolatedPdfReader(limits).open(await hugeImagePdf(30_000, 30_000));
    const before = process.memoryUsage.rss();
    const error = await doc.images(1).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/image on page 1 is larger than 50000000 pixels/);
    expect(process.memoryUsage.rss() - before).toBeLessThan(500 * 1024 * 1024);
    await doc.close();
  });

  it("unpacks a page's 1-bit images within one image's budget: forty 5000 × 5000 masks are no gigabyte", async () => {
    const doc = await new IsolatedPdfReader(limits).open(await manyMasksPdf(40, 5000, 5000));
    const images = await doc.images(1);
    // Two fit the 50-million-pixel budget; the page still shows several pictures, so it is drawn whole.
    expect(images.map((i) => [i.width, i.height, i.channels])).toEqual([
      [5000, 5000, 1],
      [5000, 5000, 1],
    ]);
    await doc.close();
  });

  it('draws a page within the pixel budget whatever scale is asked', async () => {
    const flyer = await multiPageFlyer(1, 'Scaled');
    const doc = await new IsolatedPdfReader({ ...limits, maxImagePixels: 1_000_000 }).open(flyer.bytes);
    const drawn = await doc.render(1, 10);
    expect(drawn.width * drawn.height).toBeLessThanOrEqual(1_000_000);
    await doc.close();
  });

  it('stops a decompression bomb at the memory limit', async () => {
    const bomb = await contentBombPdf(600 * 1024 * 1024);
    const doc = await new IsolatedPdfReader({ ...limits, memoryMb: 150 }).open(bomb);
    const error = await doc.page(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PdfLimitExceeded);
    expect((error as Error).message).toMatch(/more than 150 MB/);
    await doc.close();
  });

  it('stops a step that runs past its deadline', async () => {
    const flyer = await multiPageFlyer(1, 'Slow');
    const error = await new IsolatedPdfReader({ ...limits, stepTimeoutMs: 1 })
      .open(flyer.bytes)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PdfLimitExceeded);
    expect((error as Error).message).toMatch(/took over 1 ms/);
  });
});
