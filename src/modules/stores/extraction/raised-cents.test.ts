import { describe, expect, it } from 'vitest';
import type { LayoutItem } from './layout.ts';
import { findPrices } from './prices.ts';
import {
  fixOcrWords,
  harmoniseArabicScript,
  joinRaisedCents,
  joinSplitDigits,
  splitGluedCents,
} from './raised-cents.ts';

const word = (text: string, x: number, y: number, width: number, height: number): LayoutItem => ({
  text,
  x,
  y,
  width,
  height,
  confidence: 0.9,
});
const texts = (items: LayoutItem[]) => items.map((i) => i.text);

/** Word boxes as tesseract returns them for prices drawn with raised cents (bench/flyers/generator). */
describe('raised cents', () => {
  it('joins a small sign, a tall whole part and raised cents into one price: $3⁹⁵ → $ 3.95', () => {
    const items = [
      word('Ground', 44, 930, 88, 24),
      word('$', 44, 1071, 18, 42),
      word('3', 70, 1078, 40, 71),
      word('95', 117, 1076, 40, 32),
      word('/lb', 170, 1126, 30, 24),
    ];
    const joined = joinRaisedCents(items);
    expect(texts(joined)).toEqual(['Ground', '$ 3.95', '/lb']);
    expect(findPrices(joined[1]!.text).map((p) => p.value)).toEqual([3.95]);
    expect(joined[1]).toMatchObject({ x: 44, y: 1071, width: 113 });
  });

  it('reads euro and real conventions: 2,⁴⁹ € and R$ 20⁵⁰, and 95¢', () => {
    expect(texts(joinRaisedCents([word('2,', 100, 500, 60, 72), word('49', 165, 498, 40, 33)]))).toEqual([
      '2,49',
    ]);
    expect(texts(joinRaisedCents([word('7', 100, 500, 40, 72), word('49€', 145, 498, 60, 33)]))).toEqual([
      '7,49 €',
    ]);
    expect(
      texts(
        joinRaisedCents([
          word('R$', 40, 495, 40, 30),
          word('20', 85, 500, 80, 72),
          word('50', 170, 498, 40, 33),
        ]),
      ),
    ).toEqual(['R$ 20,50']);
    expect(texts(joinRaisedCents([word('95', 100, 500, 80, 72), word('¢', 185, 505, 17, 34)]))).toEqual([
      '95¢',
    ]);
  });

  it('leaves numbers alone that are not a raised pair: same height, below the top, or far away', () => {
    const line = [word('Open', 30, 1711, 50, 20), word('7', 90, 1711, 10, 20), word('22', 105, 1711, 20, 20)];
    expect(texts(joinRaisedCents(line))).toEqual(['Open', '7', '22']);
    const subscript = [word('3', 70, 1078, 40, 71), word('95', 117, 1120, 40, 30)];
    expect(texts(joinRaisedCents(subscript))).toEqual(['3', '95']);
    const far = [word('3', 70, 1078, 40, 71), word('95', 300, 1076, 40, 32)];
    expect(texts(joinRaisedCents(far))).toEqual(['3', '95']);
  });

  it('keeps the reading order of the other words (the validity line is read from it)', () => {
    const items = [
      word('Valid', 10, 10, 50, 20),
      word('Aug', 70, 11, 40, 20),
      word('14-20,', 120, 9, 60, 20),
      word('2025', 190, 10, 50, 20),
      word('4', 70, 300, 40, 72),
      word('29', 115, 298, 40, 32),
    ];
    expect(texts(joinRaisedCents(joinSplitDigits(items)))).toEqual([
      'Valid',
      'Aug',
      '14-20,',
      '2025',
      '4.29',
    ]);
  });
});

describe('OCR word repairs', () => {
  it('joins tall digits read apart: "9" "5¢" → 95¢', () => {
    expect(texts(joinSplitDigits([word('9', 846, 601, 40, 70), word('5¢', 895, 602, 64, 69)]))).toEqual([
      '95¢',
    ]);
    expect(texts(joinSplitDigits([word('9', 846, 601, 40, 70), word('5', 1000, 602, 40, 69)]))).toEqual([
      '9',
      '5',
    ]);
  });

  it('reads "/Ib" as /lb and a currency sign before three or four digits as a price that lost its point', () => {
    expect(
      texts(
        fixOcrWords([
          word('/Ib', 0, 0, 30, 24),
          word('$189', 0, 0, 60, 30),
          word('$6-39', 0, 0, 60, 30),
          word('555-0141', 0, 0, 90, 15),
          word('2025', 0, 0, 50, 20),
        ]),
      ),
    ).toEqual(['/lb', '$1.89', '$6.39', '555-0141', '2025']);
  });

  it('reads a struck-through price whose line OCR read as a semicolon or a dash ("24;29-€", "3:20-€"), not a time', () => {
    // Generated Spanish and German tiles ("Antes 24,29 €", "statt 3,20 €" struck through) and the
    // rasterised real ones ("De R$ 68,89 por"): their regular prices went unread.
    const fixed = fixOcrWords(
      [
        '24;29-€',
        '3:20-€',
        '1;99',
        '4,99-€',
        '12:39-—€',
        '68;89-por',
        'Antes-9:35-€',
        '$6:99',
        '22:00',
        '8:30',
        '9:00-21:30',
        '10-12',
      ].map((t, i) => word(t, 0, i * 20, 60, 12)),
    );
    expect(texts(fixed)).toEqual([
      '24,29€',
      '3,20€',
      '1,99',
      '4,99€',
      '12,39€',
      '68,89 por',
      'Antes 9,35€',
      '$6.99',
      '22:00',
      '8:30',
      '9:00-21:30',
      '10-12',
    ]);
  });

  it('reads the zero OCR made of the "o" of "oz" after a pack\'s figures as "oz" ("120z", "14 0Z")', () => {
    const fixed = fixOcrWords(
      ['120z', '160z', '0Z', '6.30z', '100', '2025', 'Oz'].map((t, i) => word(t, 0, i * 20, 40, 12)),
    );
    expect(texts(fixed)).toEqual(['12oz', '16oz', 'OZ', '6.3oz', '100', '2025', 'Oz']);
  });

  it("drops a stray mark OCR glued to a word's end, not a short word's or a mark inside", () => {
    const fixed = fixOcrWords(
      ['Strawberries§', 'Yogurt|', 'Salmon©', 'ee§', 'Kraft®', 'Ba§con'].map((t, i) =>
        word(t, 0, i * 20, 60, 12),
      ),
    );
    expect(texts(fixed)).toEqual(['Strawberries', 'Yogurt', 'Salmon', 'ee§', 'Kraft®', 'Ba§con']);
  });

  it("drops a highlight band's edges read as brackets or bars at a word's ends, not a mark inside", () => {
    const fixed = fixOcrWords(
      ['[POTATO', 'FARMS]', '{ARDWOOD', 'COFFEE]|', '[LB]', '|', '[1]', 'Ba[con', '(Carne', 'Tamales)'].map(
        (t, i) => word(t, 0, i * 20, 60, 12),
      ),
    );
    expect(texts(fixed)).toEqual([
      'POTATO',
      'FARMS',
      'ARDWOOD',
      'COFFEE',
      'LB',
      '|',
      '[1]',
      'Ba[con',
      '(Carne',
      'Tamales)',
    ]);
  });

  it('reads a Latin "6" or "©" glued to a price in Persian or Arabic digits as the euro sign', () => {
    const fixed = fixOcrWords([
      word('6۲۲,۲۹', 0, 0, 60, 12),
      word('۵,۳۹©', 0, 20, 60, 12),
      word('©٤,٥٠', 0, 40, 60, 12),
      word('6,50', 0, 60, 60, 12),
      word('۶,۵۰', 0, 80, 60, 12),
    ]);
    expect(texts(fixed)).toEqual(['€۲۲,۲۹', '۵,۳۹€', '€٤,٥٠', '6,50', '۶,۵۰']);
  });

  it('reads a cent sign beside a euro sign after an amount as the euro sign alone', () => {
    const fixed = fixOcrWords(
      ['2x5¢€', '3x5€¢', '4,99 ¢€', '95¢', '€ 2,49', '¢€'].map((t, i) => word(t, 0, i * 20, 60, 12)),
    );
    expect(texts(fixed)).toEqual(['2x5€', '3x5€', '4,99€', '95¢', '€ 2,49', '¢€']);
  });

  it('reads a date whose second slash OCR read as "1" as that date, nothing else so shaped', () => {
    const fixed = fixOcrWords(
      ['23/1012025', '1/712026', '23/10/2025', '23/1312025', '12/1011999', '3/1012'].map((t, i) =>
        word(t, 0, i * 20, 60, 12),
      ),
    );
    expect(texts(fixed)).toEqual([
      '23/10/2025',
      '1/7/2026',
      '23/10/2025',
      '23/1312025',
      '12/10/1999',
      '3/1012',
    ]);
  });

  it('reads "S$" (the dollar\'s stroke read as an S beside it) as "$"', () => {
    const fixed = fixOcrWords(['S$', 'S$16', 'US$', 'S$S'].map((t, i) => word(t, 0, i * 20, 30, 12)));
    expect(texts(fixed)).toEqual(['$', '$16', 'US$', 'S$S']);
  });

  it('reads a big "79°" as 79¢ and a big "RS" as R$, never a small "4°" or "RS"', () => {
    const small = ['Green', 'Cabbage', 'Store', 'at', '4°', 'Regular', '$1.09'].map((t, i) =>
      word(t, i * 60, 0, 50, 12),
    );
    const fixed = fixOcrWords([
      ...small,
      word('79°', 0, 40, 70, 34),
      word('/lb', 80, 60, 30, 12),
      word('1°', 200, 40, 40, 34),
      word('RS', 300, 40, 30, 30),
      word('RS', 300, 80, 20, 12),
    ]);
    expect(texts(fixed)).toEqual([
      'Green',
      'Cabbage',
      'Store',
      'at',
      '4°',
      'Regular',
      '$1.09',
      '79¢',
      '/lb',
      '1°',
      'R$',
      'RS',
    ]);
  });
});

describe('Arabic-script letter forms', () => {
  it('gives every yeh and kaf the Persian form on a page with Persian-only letters, the Arabic one otherwise', () => {
    const persian = harmoniseArabicScript([
      word('پنیر ليقوان', 0, 0, 90, 30),
      word('جاى ايرانى', 0, 40, 90, 30),
    ]);
    expect(texts(persian)).toEqual(['پنیر لیقوان', 'جای ایرانی']);
    const arabic = harmoniseArabicScript([word('أرز بسمتی', 0, 0, 90, 30), word('زیت زیتون', 0, 40, 90, 30)]);
    expect(texts(arabic)).toEqual(['أرز بسمتي', 'زيت زيتون']);
    const latin = [word('Pommes', 0, 0, 90, 30)];
    expect(harmoniseArabicScript(latin)).toEqual(latin);
  });
});

describe('cents glued to their price', () => {
  it('reads a display-size "1149" as 11,49, never a year or a number at body size', () => {
    const items = [
      word('Cialde', 556, 711, 26, 9),
      word('omaggio', 642, 710, 37, 9),
      word('1149', 553, 742, 125, 47),
      word('2025', 40, 20, 120, 47),
      word('1957', 427, 584, 9, 4),
      word('712', 603, 721, 16, 9),
    ];
    expect(texts(splitGluedCents(items))).toEqual(['Cialde', 'omaggio', '11,49', '2025', '1957', '712']);
  });

  it('leaves the whole amount of a multi-buy alone ("Leve 4 por R$ 102" is 25,50 each)', () => {
    const body = ['Óleo', 'de', 'Soja', 'Feijão', 'Carioca', 'Sem', 'cartão'];
    const items = [
      ...body.map((t, i) => word(t, 21 + i * 50, 600, 40, 11)),
      word('Arroz', 21, 712, 40, 11),
      word('Tipo', 57, 711, 30, 14),
      word('Leve', 22, 757, 60, 24),
      word('4', 92, 757, 14, 24),
      word('por', 117, 763, 40, 24),
      word('RS', 170, 753, 30, 31),
      word('102', 214, 757, 47, 24),
    ];
    expect(texts(splitGluedCents(items)).slice(body.length)).toEqual([
      'Arroz',
      'Tipo',
      'Leve',
      '4',
      'por',
      'RS',
      '102',
    ]);
  });
});
