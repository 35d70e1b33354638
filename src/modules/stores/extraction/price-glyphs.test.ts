import { describe, expect, it } from 'vitest';
import type { ImageRegion, OcrEngine, OcrWord, PriceGlyphs } from '../../../providers/ocr/ocr.ts';
import {
  bigPriceCandidates,
  MAX_PRICE_READS_PER_PAGE,
  regionAfter,
  rereadBigPrices,
} from './price-glyphs.ts';

const word = (text: string, x: number, y: number, width: number, height: number): OcrWord => ({
  text,
  x,
  y,
  width,
  height,
  confidence: 0.6,
});

/** Words as whole-page tesseract returned them for a generated US flyer (raised cents garbled). */
const page = [
  word('Boneless', 44, 452, 114, 24),
  word('Chicken', 168, 452, 100, 24),
  word('Breast', 279, 454, 80, 22),
  { ...word('Harvest', 40, 40, 300, 80), confidence: 0.95 },
  word('$', 444, 593, 18, 42),
  word('2%', 470, 598, 87, 72),
  word('5', 847, 1080, 39, 69),
  word('0°', 895, 1078, 64, 71),
  word('$ 3.95', 44, 1071, 113, 78),
  word('/lb', 570, 648, 30, 24),
];

/** An engine whose digit reader answers `read` for each region, with `runs` of tall glyphs. */
function priceReader(
  read: (region: ImageRegion) => PriceGlyphs | undefined,
  runs: ImageRegion[] = [],
): OcrEngine {
  return {
    recognize: async () => [],
    close: async () => undefined,
    findTallGlyphRuns: async () => runs,
    readPrices: async (_image, regions) => regions.map(read),
  };
}

describe('big prices read again', () => {
  it('picks tall words with digits or a doubtful reading, never a confident heading', () => {
    const doubtful = [
      ...page,
      { ...word('Regge', 845, 1072, 185, 77), confidence: 0.32 },
      { ...word('Harvest', 40, 40, 300, 80), confidence: 0.95 },
    ];
    expect(bigPriceCandidates(doubtful).map((i) => doubtful[i]!.text)).toEqual([
      '2%',
      '5',
      '0°',
      '$ 3.95',
      'Regge',
    ]);
  });

  it('never picks a price the price recogniser settled (read as printed, from its line)', () => {
    const settled = [...page, { ...word('16.99', 560, 548, 230, 91), confidence: 0.98, settled: true }];
    expect(bigPriceCandidates(settled).map((i) => settled[i]!.text)).not.toContain('16.99');
    expect(
      bigPriceCandidates(settled.map((w) => ({ ...w, settled: undefined }))).map((i) => settled[i]!.text),
    ).toContain('16.99');
  });

  it('replaces them by what the digit reader finds, swallowing the raised part read apart', async () => {
    const asked: number[] = [];
    const engine: OcrEngine = {
      recognize: async () => [],
      close: async () => undefined,
      readPrices: async (_image, regions) =>
        regions.map((region) => {
          asked.push(Math.round(region.x));
          if (region.x === 470) return { whole: '2', raised: '49', right: 557, confidence: 0.9 };
          if (region.x === 847) return { whole: '50', raised: '¢', right: 958, confidence: 0.9 };
          return { whole: '0', raised: '', right: 958, confidence: 0.9 }; // nothing usable: the word stays
        }),
    };
    const out = await rereadBigPrices(engine, Buffer.alloc(0), page);
    expect(asked).toEqual([470, 847, 895, 44]);
    expect(out.map((w) => w.text)).toEqual([
      'Boneless',
      'Chicken',
      'Breast',
      'Harvest',
      '$',
      '2.49',
      '50¢',
      '$ 3.95',
      '/lb',
    ]);
  });

  it('reads big digits OCR missed altogether where the ink shows a run of tall glyphs', async () => {
    const engine: OcrEngine = {
      recognize: async () => [],
      close: async () => undefined,
      findTallGlyphRuns: async () => [
        { x: 46, y: 480, width: 41, height: 69 }, // no word there: read
        { x: 444, y: 1071, width: 110, height: 78 }, // under a tall word: that word is read instead
      ],
      readPrices: async (_image, regions) =>
        regions.map((region) =>
          region.x === 46 ? { whole: '2,', raised: '29', right: 150, confidence: 0.9 } : undefined,
        ),
    };
    const words = [
      word('Pommes', 44, 408, 108, 22),
      word('Golden', 162, 406, 87, 24),
      word('1.49', 444, 1071, 113, 77),
    ];
    const out = await rereadBigPrices(engine, Buffer.alloc(0), words);
    expect(out.map((w) => w.text)).toEqual(['Pommes', 'Golden', '1.49', '2.29']);
    expect(out[3]).toMatchObject({ x: 46, confidence: 0.9 });
  });

  it('reads a price OCR boxed in pieces from the start of its run of tall glyphs', async () => {
    // "R$ 22⁴⁹" on a generated Brazilian page: OCR boxed nothing over the first "2", a sliver "É"
    // over the second and "aa" over the second and the cents. Read from "É", the price was "2.4".
    const asked: number[] = [];
    const engine: OcrEngine = {
      recognize: async () => [],
      close: async () => undefined,
      findTallGlyphRuns: async () => [
        { x: 94, y: 601, width: 90, height: 69 }, // "22"
        { x: 494, y: 601, width: 41, height: 69 }, // "8,50 €": its word covers the run's start
      ],
      readPrices: async (_image, regions) =>
        regions.map((region) => {
          asked.push(Math.round(region.x));
          if (region.x < 100) return { whole: '22', raised: '49', right: 229, confidence: 0.9 };
          if (region.x === 446) return { whole: '8,50', raised: '', right: 565, confidence: 0.9 };
          return undefined;
        }),
    };
    const words = [
      word('Arroz', 44, 434, 80, 24),
      word('Tipo', 134, 434, 60, 24),
      word('É', 140, 600, 1, 70),
      word('aa', 183, 598, 47, 72),
      word('8,50', 446, 618, 119, 64),
      word('€', 589, 618, 20, 52),
    ];
    const out = await rereadBigPrices(engine, Buffer.alloc(0), words);
    expect(out.map((w) => w.text)).toEqual(['Arroz', 'Tipo', '22.49', '8.50', '€']);
    expect(out[2]).toMatchObject({ x: 90.5, confidence: 0.9 });
    expect(asked).toContain(589); // the "€" is read from where it stands, not from the run's start
  });

  it('reads a price from the start of its run when OCR boxed its last digit with the raised cents', async () => {
    // "$10⁷⁹" on a generated US page: OCR boxed "0”" over the "0" and the cents and nothing over the
    // "1". The run of "10" covers less than half of that box; read from the box, the price was 0.79.
    const engine = priceReader(
      (region) => ({ whole: region.x < 500 ? '10' : '0', raised: '79', right: 606, confidence: 0.9 }),
      [{ x: 475, y: 1555, width: 83, height: 71 }],
    );
    const words = [
      word('Atlantic', 443, 1408, 98, 24),
      word('Salmon', 551, 1408, 93, 24),
      word('Fillet', 655, 1408, 62, 24),
      word('0”', 519, 1554, 87, 73),
      word('/lb', 618, 1604, 31, 24),
    ];
    const out = await rereadBigPrices(engine, Buffer.alloc(0), words);
    expect(out.map((w) => w.text)).toEqual(['Atlantic', 'Salmon', 'Fillet', '10.79', '/lb']);
  });

  it('reads a price OCR boxed as its raised cents and the top of its whole part down to its run', async () => {
    // "R$ 5⁴⁹" on a generated Brazilian page: OCR boxed "49" over the cents and the top of the "5".
    // Cut at that box's bottom the "5" never reached the baseline: read as "49", the price was 49.00.
    const engine = priceReader(
      (region) =>
        region.y + region.height >= 910
          ? { whole: '5', raised: '49', right: 585, confidence: 0.9 }
          : { whole: '49', raised: '', right: 585, confidence: 0 },
      [{ x: 494, y: 841, width: 41, height: 69 }],
    );
    const words = [
      word('Banana', 444, 759, 92, 22),
      word('Nanica', 546, 759, 85, 22),
      word('R$', 445, 832, 41, 42),
      { ...word('49', 496, 828, 89, 53), confidence: 0.42 },
    ];
    const out = await rereadBigPrices(engine, Buffer.alloc(0), words);
    expect(out.map((w) => w.text)).toEqual(['Banana', 'Nanica', 'R$', '5.49']);
  });

  it("swallows OCR's other reading of the price just read, boxed over it from further left", async () => {
    // "R$7⁹⁹" on a generated Brazilian page: OCR boxed "R$=799" over the sign, the top of the "7"
    // and the cents, and "7" alone below. Left beside "7.99", the two made "7997.99".
    const engine = priceReader((region) =>
      region.x === 694 ? { whole: '7', raised: '99', right: 780, confidence: 0.9 } : undefined,
    );
    const words = [
      word('Tomate', 643, 406, 92, 24),
      word('Italiano', 746, 406, 93, 24),
      { ...word('R$=799', 645, 474, 136, 42), confidence: 0.74 },
      word('7', 694, 481, 41, 68),
    ];
    const out = await rereadBigPrices(engine, Buffer.alloc(0), words);
    expect(out.map((w) => w.text)).toEqual(['Tomate', 'Italiano', '7.99']);
  });

  it('swallows the second box of a price read down to its foot, below the first box', async () => {
    // "$3⁷⁹" on a generated Canadian page: OCR boxed "py" over the sign and the top of the "3", and
    // "3.79" lower down. Read from "py" to the digits' foot, the price is whole; left beside it,
    // the lower box was a second 3.79 and the tile lost its offer.
    const engine = priceReader((region) =>
      region.x === 38 ? { whole: '3', raised: '79', right: 150, bottom: 553, confidence: 0.9 } : undefined,
    );
    const words = [
      word('Fresh', 44, 406, 67, 25),
      word('Strawberries', 123, 404, 165, 31),
      { ...word('py', 38, 442, 44, 77), confidence: 0.26 },
      word('3.79', 69, 479, 87, 71),
    ];
    const out = await rereadBigPrices(engine, Buffer.alloc(0), words);
    expect(out.map((w) => w.text)).toEqual(['Fresh', 'Strawberries', '3.79']);
  });

  it('takes a display multi-buy the digit reader finds with its dollar sign ("2/81" + "3" is "2/$13")', async () => {
    const engine = priceReader((region) =>
      region.x === 445 ? { whole: '2/$13', raised: '', right: 604, confidence: 0.9 } : undefined,
    );
    const words = [
      word('Long', 444, 454, 59, 28),
      word('Grain', 514, 452, 65, 24),
      word('Rice', 670, 452, 53, 24),
      { ...word('2/81', 445, 612, 116, 65), confidence: 0.7 },
      word('3', 574, 620, 30, 50),
    ];
    const out = await rereadBigPrices(engine, Buffer.alloc(0), words);
    expect(out.map((w) => w.text)).toEqual(['Long', 'Grain', 'Rice', '2/$13']);
  });

  it('drops the "1" OCR read for a low euro sign where the digit reader reads the digits alone', async () => {
    // An Italian flyer's "€4,⁹⁹": tesseract read "1499" (14.99), the digit reader "499".
    const engine = priceReader((region) =>
      region.x < 700 ? { whole: '499', raised: '', right: 897, confidence: 0.96 } : undefined,
    );
    const words = [
      word('Tonno', 668, 1475, 50, 16),
      { ...word('1499', 628, 1518, 268, 140), confidence: 0.88 },
      { ...word('1299', 928, 1518, 268, 140), confidence: 0.88 },
    ];
    const out = await rereadBigPrices(engine, Buffer.alloc(0), words);
    expect(out.map((w) => w.text)).toEqual(['Tonno', '499', '1299']);
  });

  it('keeps a reading whose digits are not the word\'s after a "1"', async () => {
    const engine = priceReader(() => ({ whole: '99', raised: '', right: 897, confidence: 0.96 }));
    const words = [
      word('Tonno', 668, 1475, 50, 16),
      { ...word('1499', 628, 1518, 268, 140), confidence: 0.88 },
    ];
    const out = await rereadBigPrices(engine, Buffer.alloc(0), words);
    expect(out.map((w) => w.text)).toEqual(['Tonno', '1499']);
  });

  it('does not read the numbers of a multi-buy again as a price with raised cents (its neighbour, yes)', async () => {
    const asked: string[] = [];
    const engine: OcrEngine = {
      recognize: async () => [],
      close: async () => undefined,
      readPrices: async (_image, regions) => {
        asked.push(...regions.map((r) => String(r.x)));
        return regions.map(() => ({ whole: '1', raised: '02', right: 560, confidence: 0.9 }));
      },
    };
    const body = ['Óleo', 'de', 'Soja', 'Feijão', 'Carioca', 'Sem', 'cartão'];
    const words = [
      ...body.map((t, i) => word(t, 44 + i * 100, 1200, 80, 24)),
      word('Arroz', 44, 1480, 80, 24),
      word('Tipo', 134, 1480, 60, 24),
      word('Leve', 46, 1576, 120, 50),
      word('4', 192, 1576, 30, 50),
      word('por', 244, 1576, 80, 50),
      word('RS', 354, 1568, 66, 65),
      word('102', 446, 1576, 97, 50),
      word('4%,', 900, 1557, 127, 75), // the neighbouring tile's "R$ 4⁴⁹" on the same baseline
    ];
    const out = await rereadBigPrices(engine, Buffer.alloc(0), words);
    expect(out.map((w) => w.text).slice(body.length)).toEqual([
      'Arroz',
      'Tipo',
      'Leve',
      '4',
      'por',
      'RS',
      '102',
      '1.02',
    ]);
    expect(asked).toEqual(['900']);
  });

  it('leaves the words alone when the engine cannot read prices on their own', async () => {
    const engine: OcrEngine = { recognize: async () => [], close: async () => undefined };
    expect(await rereadBigPrices(engine, Buffer.alloc(0), page)).toBe(page);
  });

  it('reads at most a bounded number of regions on a page full of tall shapes (a hostile image)', async () => {
    let asked = 0;
    const runs = Array.from({ length: 2000 }, (_, i) => ({
      x: (i % 40) * 30,
      y: Math.floor(i / 40) * 70,
      width: 20,
      height: 50 + (i % 7),
    }));
    const engine: OcrEngine = {
      recognize: async () => [],
      close: async () => undefined,
      findTallGlyphRuns: async () => runs,
      readPrices: async (_image, regions) => {
        asked += regions.length;
        return regions.map(() => undefined);
      },
    };
    await rereadBigPrices(engine, Buffer.alloc(0), [
      word('Apples', 0, 5000, 60, 20),
      word('Pears', 80, 5000, 60, 20),
    ]);
    expect(asked).toBe(MAX_PRICE_READS_PER_PAGE);
  });
});

describe('regionAfter', () => {
  it('follows the tall words that continue a price and leaves room for raised cents', () => {
    const region = regionAfter(word('4', 100, 50, 20, 40), [word('6.49', 125, 52, 60, 38)]);
    expect(region.x).toBe(100);
    expect(region.width).toBeCloseTo(185 - 100 + 44);
  });

  it('takes raised cents OCR boxed as their own word to their end, where the room would cut them', () => {
    // "€11⁴⁹" boxed "J" + "1" + "49": the room after the "1" ended inside the "9", read "4¢".
    const first = word('J', 1143, 1538, 62, 101);
    const region = regionAfter(first, [word('1', 1224, 1538, 41, 101), word('49', 1292, 1539, 118, 67)]);
    expect(region.x + region.width).toBeGreaterThanOrEqual(1410);
    // A unit on the baseline after the price ("kg") is no raised cents: the room stands.
    const unit = regionAfter(first, [word('1', 1224, 1538, 41, 101), word('kg', 1292, 1600, 118, 40)]);
    expect(unit.x + unit.width).toBeCloseTo(1265 + 1.1 * 101);
    // Nor is another price set small after it ("De R$ 6,29 por"): read with it, the line under it was taken in.
    const other = regionAfter(first, [word('1', 1224, 1538, 41, 101), word('6,29', 1292, 1539, 118, 67)]);
    expect(other.x + other.width).toBeCloseTo(1265 + 1.1 * 101);
  });

  it('ends when a word lies inside what it has covered (a mark OCR boxed at the end of the digits)', () => {
    // Once looped forever on a generated US page: the mark starts just before the run's right edge
    // and ends before it, so the run never grew and the same word was found again.
    const digits = word('3', 100, 50, 30, 40);
    const mark = word('.', 127, 52, 2, 36);
    const region = regionAfter(digits, [mark, word('99', 400, 50, 30, 40)]);
    expect(region.width).toBeCloseTo(30 + 44);
  });
});
