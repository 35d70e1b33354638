import { existsSync } from 'node:fs';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { withArabicIndicPrices } from './arabic-prices.ts';
import { ocrWord } from '../../../test/support/ocr-words.ts';

const FACE = '/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf';
const word = ocrWord;

describe.runIf(existsSync(FACE))('display prices of an Arabic-script page', () => {
  GlobalFonts.registerFromPath(FACE, 'ArabicPricesFace');

  it("replaces OCR's words of the digits with the number, keeps the words beside it", async () => {
    // A page much taller than its prices (a glyph over a fifth of the page is a panel, not print).
    const canvas = createCanvas(700, 600);
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, 700, 600);
    g.fillStyle = '#111';
    g.font = '36px ArabicPricesFace';
    g.fillText('لبنة', 560, 50);
    g.font = '84px ArabicPricesFace';
    g.fillStyle = '#c2185b';
    g.direction = 'rtl';
    g.fillText('٩.٢٩ درهم', 520, 160);
    const ocr = [
      word('لبنة', 560, 22, 60, 40),
      word('4۹', 340, 100, 130, 60, 0.6),
      word('درهم', 80, 100, 160, 70),
    ];
    const words = await withArabicIndicPrices(canvas.toBuffer('image/png'), ocr);
    expect(words.map((w) => w.text).sort()).toEqual(['9.29', 'درهم', 'لبنة']);
    expect(words.find((w) => w.text === '9.29')?.settled).toBe(true);
  });

  /**
   * A page of five offers, a name over each price, and OCR's words for it: the names, and each
   * price as `read` gives it (text and certainty), boxed where the price is drawn.
   */
  function offersPage(prices: readonly string[], read: (price: string, i: number) => [string, number]) {
    const canvas = createCanvas(700, 1400);
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, 700, 1400);
    const ocr = prices.flatMap((price, i) => {
      const top = 40 + i * 260;
      g.fillStyle = '#111';
      g.font = '36px ArabicPricesFace';
      g.fillText('لبنة', 500, top + 36);
      g.fillStyle = '#c2185b';
      g.font = '84px ArabicPricesFace';
      g.fillText(price, 200, top + 170);
      const box = g.measureText(price);
      const [text, confidence] = read(price, i);
      return [
        word('لبنة', 500, top + 6, 60, 40),
        word(
          text,
          200,
          top + 170 - box.actualBoundingBoxAscent,
          box.width,
          box.actualBoundingBoxAscent,
          confidence,
        ),
      ];
    });
    return { png: canvas.toBuffer('image/png'), ocr };
  }

  it('on a page printing Arabic-Indic digits, reads a price OCR took surely for Latin digits', async () => {
    // "٥.٩٩" read "0.99" at 0.91 (٥ is a ring), the other prices read as garbage.
    const page = offersPage(['٥.٩٩', '٩.٢٩', '٣.٤٩', '٧.٢٥', '١٢.٩٩'], (_, i) =>
      i === 0 ? ['0.99', 0.91] : ['4۹', 0.5],
    );
    const words = await withArabicIndicPrices(page.png, page.ocr);
    expect(words.filter((w) => /\d/.test(w.text)).map((w) => w.text)).toEqual([
      '5.99',
      '9.29',
      '3.49',
      '7.25',
      '12.99',
    ]);
  });

  it('on a page printing Western digits, leaves the prices OCR read surely as they are', async () => {
    const prices = ['10.50', '9.29', '3.49', '7.25', '12.99'];
    const page = offersPage(prices, (price) => [price, 0.95]);
    const words = await withArabicIndicPrices(page.png, page.ocr);
    expect(words.filter((w) => /\d/.test(w.text)).map((w) => w.text)).toEqual(prices);
  });

  it('finds no price in a photo-like noise of marks, and leaves the words as they were', async () => {
    const canvas = createCanvas(1200, 1200);
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, 1200, 1200);
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    g.fillStyle = '#222';
    for (let i = 0; i < 6000; i += 1)
      g.fillRect(random() * 1200, random() * 1200, 2 + random() * 8, 4 + random() * 30);
    const ocr = [word('زعفران', 900, 40, 120, 40), word('گرم', 700, 40, 60, 40)];
    const words = await withArabicIndicPrices(canvas.toBuffer('image/png'), ocr);
    expect(
      words
        .filter((w) => w.text.includes('.'))
        .map((w) => [w.text, Math.round(w.x), Math.round(w.y), Math.round(w.width), Math.round(w.height)]),
    ).toEqual([]);
    expect(words.map((w) => w.text)).toEqual(expect.arrayContaining(['زعفران', 'گرم']));
  });
});
