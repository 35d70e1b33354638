import { describe, expect, it } from 'vitest';
import { ocrWord as word } from '../../../../test/support/ocr-words.ts';
import { withMisreadCurrencies } from './arabic-currency.ts';
import { parseLayout, type LayoutItem } from './layout.ts';
const texts = (items: LayoutItem[]) => items.map((i) => i.text);

/** A generated ar-AE tile as OCR read it: "٢ حبة ٨ درهم" in display type, its "درهم" read "درجم". */
const breadTile = (currency: string) => [
  word('خبز', 1150, 767, 47, 29),
  word('عربي', 1076, 773, 65, 30),
  word(currency, 856, 876, 128, 56),
  word('8', 1003, 869, 36, 41),
  word('حبة', 1057, 859, 91, 64),
  word('2', 1168, 868, 28, 41),
];

describe('Arabic-script currency words misread by a letter', () => {
  it('reads a word a letter from "درهم" just before an amount as the currency, so "2 for 8" is 4.00 each', () => {
    expect(parseLayout(breadTile('درجم'))).toEqual([]);
    const offers = parseLayout(withMisreadCurrencies(breadTile('درجم')));
    expect(offers).toMatchObject([{ product: 'خبز عربي', discountedPrice: 4, unit: 'each' }]);
  });

  it('takes one currency for the Arabic and Persian spellings of one word ("ریال", "ريال")', () => {
    const items = [word('ربال', 100, 10, 60, 30), word('15', 170, 10, 30, 30)];
    expect(texts(withMisreadCurrencies(items))).toEqual(['ريال', '15']);
  });

  it('leaves the word as read away from an amount, after it, or across a column', () => {
    const alone = [word('درجم', 100, 10, 60, 30)];
    const afterIt = [word('15', 40, 10, 30, 30), word('درجم', 100, 10, 60, 30)];
    const farRight = [word('درجم', 100, 10, 60, 30), word('15', 400, 10, 30, 30)];
    const lineBelow = [word('درجم', 100, 10, 60, 30), word('15', 170, 80, 30, 30)];
    for (const items of [alone, afterIt, farRight, lineBelow])
      expect(texts(withMisreadCurrencies(items))).toEqual(texts(items));
  });

  it('leaves words two letters from a currency, currencies and Latin words as read', () => {
    const items = (text: string) => [word(text, 100, 10, 60, 30), word('15', 170, 10, 30, 30)];
    for (const text of ['دجحم', 'درهم', 'دينار', 'Dirham', 'درم'])
      expect(texts(withMisreadCurrencies(items(text)))).toEqual([text, '15']);
  });
});

/** A generated ar-AE tile as OCR read it: "خيار", its former price, and "٤.٤١ درهم كيلو", the currency split. */
const cucumberTile = (left: string, right: string) => [
  word('خيار', 356, 436, 27, 25, 0.75),
  word('السعر', 353, 470, 30, 11),
  word('السابق', 315, 470, 35, 12),
  word('7.35', 289, 471, 23, 8),
  word('درهم', 260, 473, 24, 11),
  word('4.41', 301, 527, 51, 24),
  word(left, 214, 530, 45, 37, 0.95),
  word('كيلو', 359, 531, 28, 25),
  word(right, 258, 533, 31, 25, 0.84),
];

describe('Arabic-script currency words split in two', () => {
  it('joins "هم" "در" before an amount into "درهم", so the tile is the cucumbers, not "هم در"', () => {
    expect(parseLayout(cucumberTile('هم', 'در'))).not.toMatchObject([{ product: 'خيار' }]);
    const joined = withMisreadCurrencies(cucumberTile('هم', 'در'));
    expect(texts(joined)).toContain('درهم');
    expect(texts(joined)).not.toContain('هم');
    expect(parseLayout(joined)).toMatchObject([
      { product: 'خيار', discountedPrice: 4.41, originalPrice: 7.35 },
    ]);
  });

  it('joins a split after the first letter ("رهم" "د") the same way, one box over both', () => {
    const items = [
      word('رهم', 216, 301, 54, 37),
      word('د', 276, 304, 14, 18),
      word('3.99', 301, 298, 65, 24),
    ];
    const joined = withMisreadCurrencies(items);
    expect(joined).toMatchObject([{ text: 'درهم', x: 216, width: 74 }, { text: '3.99' }]);
  });

  it('leaves pieces as read when they spell no currency, stand apart, or no amount follows', () => {
    const noCurrency = [
      word('هم', 214, 530, 45, 37),
      word('سو', 258, 533, 31, 25),
      word('4.41', 301, 527, 51, 24),
    ];
    const apart = [
      word('هم', 150, 530, 45, 37),
      word('در', 258, 533, 31, 25),
      word('4.41', 301, 527, 51, 24),
    ];
    const noAmount = [word('هم', 214, 530, 45, 37), word('در', 258, 533, 31, 25)];
    const wrongOrder = [
      word('در', 214, 530, 45, 37),
      word('هم', 258, 533, 31, 25),
      word('4.41', 301, 527, 51, 24),
    ];
    for (const items of [noCurrency, apart, noAmount, wrongOrder])
      expect(texts(withMisreadCurrencies(items))).toEqual(texts(items));
  });
});
