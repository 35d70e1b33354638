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
