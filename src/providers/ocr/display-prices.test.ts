import { describe, expect, it } from 'vitest';
import {
  displayPrice,
  figuresOf,
  pricesIn,
  stripsWithFigures,
  withMisreadPrices,
  withRaisedCents,
} from './display-prices.ts';
import { ocrWord as word } from '../../../test/support/ocr-words.ts';

describe('a display line read as one price', () => {
  it.each([
    ['R$2.99', '2.99'],
    ['RS4,99', '4,99'],
    ['R3.59', '3.59'],
    ['$3.99', '3.99'],
    ['16.99', '16.99'],
    ['9,99unid', '9,99 unid'],
    ['4,99 kg', '4,99 kg'],
    // Real flyers rasterised (bench/flyers/rasterise.ts): a condensed US display face, an outlined italic one.
    ['$4.99LB', '4.99 LB'],
    ['2x$5.00', '2x$5.00'],
    ['2X$6.00', '2x$6.00'],
    ['3/$10', '3x$10'],
    ['99d', '99¢'],
    ['99p', '99p'],
    ['" 1,69', '1,69'],
    ['** 4,98', '4,98'],
    ['E1,09', '1,09'],
    ['C 2,29', '2,29'],
  ])('%s reads as the price %s', (text, price) => {
    expect(displayPrice(text)).toBe(price);
  });

  it.each([
    '299',
    ',99',
    '$199', // raised cents ($1⁹⁹) read flat: only the glyphs' sizes tell 1.99 from 199
    '*4990',
    'Banana',
    'Leve 3 por 10,00',
    '17/06/2024',
    '1.000 x 1.000',
    '0800 123 4567',
    '2x5', // a pack (2 x 5 pieces) as much as a multi-buy without its sign
    'Pasta fresca 500 g',
    'EAN 4011',
    '12pk',
  ])('%s is not a price line (left to the page reading)', (text) => {
    expect(displayPrice(text)).toBeUndefined();
  });

  it('has its figures compared without signs and letters', () => {
    expect(figuresOf('S4991B')).toBe('4991');
    expect(figuresOf('$4.99LB')).toBe('4.99');
    expect(figuresOf('€ 2,18 al kg.')).toBe('2,18');
  });
});

describe('prices the page reading misread', () => {
  const price = { x: 100, y: 400, width: 200, height: 80 };

  it('give way to the recogniser reading of their strip when its figures differ', () => {
    const words = withMisreadPrices(
      [word('S4991B', 110, 405, 180, 70, 0.7), word('TURKEY', 100, 300, 90, 20)],
      [{ strip: price, text: '4.99 LB', confidence: 0.99 }],
    );
    expect(words.map((w) => [w.text, w.settled ?? false])).toEqual([
      ['TURKEY', false],
      ['4.99 LB', true],
    ]);
  });

  it('stay where the page reading shows the same figures (its "€" and unit words are kept)', () => {
    const page = [word('€', 100, 410, 20, 60), word('2,18', 125, 410, 80, 60), word('al', 210, 430, 20, 30)];
    expect(withMisreadPrices(page, [{ strip: price, text: '2,18 alkg', confidence: 0.96 }])).toEqual(page);
  });

  it('give way where the recogniser reads the pence or cents mark the page reading lost ("99" for "99p")', () => {
    // Was: "99" kept, no price, and the tile given its regular price (British display pence).
    const words = withMisreadPrices(
      [word('99', 110, 405, 60, 70, 0.37)],
      [{ strip: price, text: '99p', confidence: 0.97 }],
    );
    expect(words.map((w) => w.text)).toEqual(['99p']);
    const read = [word('99p', 110, 405, 80, 70)];
    expect(withMisreadPrices(read, [{ strip: price, text: '99p', confidence: 0.97 }])).toEqual(read);
  });

  it('are looked for in the read lines that hold a figure, not in missed ones nor in names', () => {
    const name = { x: 100, y: 300, width: 200, height: 25 };
    const missed = { x: 400, y: 400, width: 200, height: 80 };
    const strips = stripsWithFigures(
      [name, price, missed],
      [missed],
      [word('TURKEY', 100, 300, 90, 20), word('S4991B', 110, 405, 180, 70), word('1,99', 410, 405, 180, 70)],
    );
    expect(strips).toEqual([price]);
  });

  it("are read line by line where a strip's whole reading is not one price", async () => {
    const left = { x: 0, y: 0, width: 100, height: 60 };
    const right = { x: 110, y: 0, width: 100, height: 60 };
    const strip = { x: 0, y: 0, width: 210, height: 60 };
    const texts = new Map([
      [strip, '"5.65*895'],
      [left, '"5,65'],
      [right, '8,95'],
    ]);
    const read = (region: object) =>
      Promise.resolve({ text: texts.get(region as never) ?? '', confidence: 0.95 });
    expect(await pricesIn(strip, [left, right], read, 0.9)).toEqual([
      { strip: left, text: '5,65', confidence: 0.95 },
      { strip: right, text: '8,95', confidence: 0.95 },
    ]);
    const unsure = (region: object) =>
      Promise.resolve({ text: texts.get(region as never) ?? '', confidence: 0.6 });
    expect(await pricesIn(strip, [left, right], unsure, 0.9)).toEqual([]);
  });

  it('take a less sure reading that continues the page reading\'s figures there (its raised cents lost: "13;" of "13,80")', async () => {
    // A badge of the real Brazilian flyer, rasterised: the card price among the badge's words.
    const strip = { x: 0, y: 0, width: 600, height: 80 };
    const price = { x: 100, y: 10, width: 110, height: 60 };
    const texts = new Map([[price, { text: '13,80', confidence: 0.86 }]]);
    const read = (region: object) =>
      Promise.resolve(texts.get(region as never) ?? { text: 'NSAVE', confidence: 0.9 });
    const lines = [price, { x: 300, y: 10, width: 120, height: 40 }];
    expect(await pricesIn(strip, lines, read, 0.9, [word('13;', 105, 15, 50, 40)])).toEqual([
      { strip: price, text: '13,80', confidence: 0.86 },
    ]);
    // Other figures there, or none, and the reading must be sure on its own.
    expect(await pricesIn(strip, lines, read, 0.9, [word('14;', 105, 15, 50, 40)])).toEqual([]);
    expect(await pricesIn(strip, lines, read, 0.9)).toEqual([]);
  });

  it('read the lines where the page reading saw figures first, when a strip holds more lines than are read', async () => {
    const strip = { x: 0, y: 0, width: 900, height: 80 };
    const words = Array.from({ length: 8 }, (_, i) => ({ x: i * 100, y: 10, width: 90, height: 40 }));
    const price = words[7]!;
    const read = (region: object) =>
      Promise.resolve(
        region === price ? { text: '6,95', confidence: 0.97 } : { text: 'Limite', confidence: 0.97 },
      );
    expect(await pricesIn(strip, words, read, 0.9, [word('6.9', 705, 15, 60, 30)])).toEqual([
      { strip: price, text: '6,95', confidence: 0.97 },
    ]);
    expect(await pricesIn(strip, words, read, 0.9)).toEqual([]);
  });

  it('join a whole part and the raised cents beside it, detected as two lines, into one price', () => {
    // The real Italian flyer's "€ 11⁴⁹": "11" and "49" are read apart, "1149" across both.
    const whole = { region: { x: 100, y: 500, width: 140, height: 120 }, text: '11', confidence: 0.9 };
    const cents = { region: { x: 250, y: 505, width: 130, height: 80 }, text: '49', confidence: 1 };
    expect(withRaisedCents(whole, cents)).toEqual({
      strip: { x: 100, y: 500, width: 280, height: 120 },
      text: '11,49',
      confidence: 0.9,
    });
    expect(withRaisedCents({ ...whole, text: '€1,' }, cents)?.text).toBe('1,49');
    // Two figures of one size side by side, or the small ones sitting low, are not raised cents.
    expect(withRaisedCents(whole, { ...cents, region: { ...cents.region, height: 118 } })).toBeUndefined();
    expect(withRaisedCents(whole, { ...cents, region: { ...cents.region, y: 545 } })).toBeUndefined();
    expect(withRaisedCents(whole, { ...cents, region: { ...cents.region, x: 400 } })).toBeUndefined();
    expect(withRaisedCents(whole, { ...cents, text: '495' })).toBeUndefined();
  });

  it('do not take a pack size set over a price for its raised cents', () => {
    // Generated seed 90: "52 fl oz" over "$3⁹⁹", read "$399" and "52": 399.52 was listed.
    const price = { region: { x: 1208, y: 1180, width: 190, height: 105 }, text: '$399', confidence: 0.95 };
    const pack = { region: { x: 1212, y: 1160, width: 160, height: 40 }, text: '52 fl oz', confidence: 0.96 };
    expect(withRaisedCents(price, pack)).toBeUndefined();
    expect(withRaisedCents(price, { ...pack, text: '52' })).toBeUndefined();
  });
});
