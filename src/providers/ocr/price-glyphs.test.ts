import { existsSync } from 'node:fs';
import { createCanvas, GlobalFonts, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import type { Worker } from 'tesseract.js';
import { MAX_REREADS, readPriceGlyphs } from './price-glyphs.ts';
import { TesseractEngine } from './tesseract-engine.ts';

const FACE = '/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf';

function whiteCanvas(width: number, height: number) {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, width, height);
  return { canvas, g };
}
const engine = new TesseractEngine();
afterAll(() => engine.close());

/** Draws prices as flyers print them: a tall whole part and small raised cents. */
function raisedPrices(prices: Array<[string, string]>): Buffer {
  GlobalFonts.registerFromPath(FACE, 'PriceFace');
  const { canvas, g } = whiteCanvas(900, 160);
  g.fillStyle = '#c00';
  prices.forEach(([whole, raised], i) => {
    const x = 20 + i * 300;
    g.font = 'bold 96px PriceFace';
    g.fillText(whole, x, 120);
    const w = g.measureText(whole).width;
    g.font = 'bold 44px PriceFace';
    g.fillText(raised, x + w + 4, 74);
  });
  return canvas.toBuffer('image/png');
}

describe.runIf(existsSync(FACE))('TesseractEngine.readPrices', () => {
  it('reads the tall part and the raised cents apart', async () => {
    const image = raisedPrices([
      ['2', '49'],
      ['13', '99'],
      ['7', '05'],
    ]);
    const regions = [0, 1, 2].map((i) => ({ x: 10 + i * 300, y: 30, width: 260, height: 110 }));
    const readings = await engine.readPrices(image, regions);
    expect(readings.map((r) => [r?.whole, r?.raised])).toEqual([
      ['2', '49'],
      ['13', '99'],
      ['7', '05'],
    ]);
  });

  it('answers nothing for an empty region', async () => {
    const image = raisedPrices([]);
    const [reading] = await engine.readPrices(image, [{ x: 10, y: 10, width: 200, height: 100 }]);
    expect(reading).toBeUndefined();
  });
});

const CONDENSED = '/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Bold.ttf';

describe.runIf(existsSync(CONDENSED))('TesseractEngine.readPrices in a condensed face', () => {
  it('keeps the whole "7" (its top bar reaches past its foot) out of the raised cents', async () => {
    GlobalFonts.registerFromPath(CONDENSED, 'CondensedFace');
    const { canvas, g } = whiteCanvas(700, 160);
    g.fillStyle = '#0b5394';
    const prices = ['7', '77'];
    prices.forEach((whole, i) => {
      let x = 20 + i * 340;
      g.font = 'bold 44px CondensedFace';
      g.fillText('R$', x, 80);
      x += g.measureText('R$').width + 2;
      g.font = 'bold 96px CondensedFace';
      g.fillText(whole, x, 130);
      x += g.measureText(whole).width + 4;
      g.font = 'bold 44px CondensedFace';
      g.fillText('79', x, 90);
    });
    const regions = prices.map((_, i) => ({ x: 10 + i * 340, y: 40, width: 300, height: 104 }));
    const readings = await engine.readPrices(canvas.toBuffer('image/png'), regions);
    expect(readings.map((r) => [r?.whole, r?.raised])).toEqual([
      ['7', '79'],
      ['77', '79'],
    ]);
  });
});

describe.runIf(existsSync(FACE))('findTallGlyphRuns', () => {
  it('finds big digits from the ink, not photo blobs, frames or body text', async () => {
    GlobalFonts.registerFromPath(FACE, 'PriceFace');
    const { canvas, g } = whiteCanvas(900, 400);
    g.fillStyle = '#c00';
    g.font = 'bold 96px PriceFace';
    g.fillText('349', 40, 300); // a big price
    g.fillStyle = '#111';
    g.font = '24px PriceFace';
    g.fillText('Boneless Chicken Breast', 40, 150); // body text
    g.fillStyle = '#3a6';
    g.beginPath();
    g.ellipse(650, 120, 90, 60, 0, 0, Math.PI * 2); // a photo stand-in
    g.fill();
    g.strokeStyle = '#f2a900';
    g.lineWidth = 3;
    g.strokeRect(5, 5, 890, 390); // the tile frame
    const runs = await new TesseractEngine().findTallGlyphRuns(canvas.toBuffer('image/png'), 45);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.x).toBeGreaterThan(35);
    expect(runs[0]!.x).toBeLessThan(50);
    expect(runs[0]!.width).toBeGreaterThan(120);
    expect(runs[0]!.height).toBeGreaterThan(60);
  });
});

describe.runIf(existsSync(CONDENSED))('TesseractEngine.readPrices of a multi-buy', () => {
  it('reads "2/$13" and "4/$16" in display type with their slash and dollar sign', async () => {
    GlobalFonts.registerFromPath(CONDENSED, 'CondensedFace');
    const { canvas, g } = whiteCanvas(700, 160);
    g.fillStyle = '#1d4f91';
    g.font = 'bold 84px CondensedFace';
    g.fillText('2/$13', 20, 120);
    g.fillText('4/$16', 370, 120);
    const regions = [0, 1].map((i) => ({ x: 10 + i * 350, y: 30, width: 300, height: 110 }));
    const readings = await engine.readPrices(canvas.toBuffer('image/png'), regions);
    expect(readings.map((r) => r?.whole)).toEqual(['2/$13', '4/$16']);
  });
});

/**
 * A price set left to right in the condensed face, each piece at its size and baseline after its
 * gap, JPEG-compressed as flyer pages are.
 */
async function condensedPrice(
  colour: string,
  left: number,
  pieces: Array<[text: string, size: number, baseline: number, gap?: number]>,
): Promise<Buffer> {
  GlobalFonts.registerFromPath(CONDENSED, 'CondensedFace');
  const { canvas, g } = whiteCanvas(300, 160);
  g.fillStyle = colour;
  let x = left;
  for (const [text, size, baseline, gap = 0] of pieces) {
    g.font = `bold ${size}px CondensedFace`;
    x += gap;
    g.fillText(text, x, baseline);
    x += g.measureText(text).width;
  }
  const compressed = await loadImage(canvas.toBuffer('image/jpeg', 80));
  const page = createCanvas(300, 160);
  page.getContext('2d').drawImage(compressed, 0, 0);
  return page.toBuffer('image/png');
}

/** A price drawn by condensedPrice with more drawn over it (a frame, a line of text). */
async function drawnOver(price: Buffer, draw: (g: SKRSContext2D) => void): Promise<Buffer> {
  const picture = await loadImage(price);
  const { canvas, g } = whiteCanvas(picture.width, picture.height);
  g.drawImage(picture, 0, 0);
  draw(g);
  return canvas.toBuffer('image/png');
}

describe.runIf(existsSync(CONDENSED))('TesseractEngine.readPrices of small raised cents', () => {
  it('reads "99" that the first reading, in the raised part\'s empty height, takes for "929"', async () => {
    // "$3⁹⁹" as the flyer generator draws it: at this offset the whole raised part read "929", and
    // its cents came out as 29.
    const image = await condensedPrice('#1d4f91', 10.75, [
      ['$', 44, 80],
      ['3', 96, 120, 2],
      ['99', 44, 80],
    ]);
    const [reading] = await engine.readPrices(image, [{ x: 8, y: 40, width: 200, height: 94 }]);
    expect(reading).toMatchObject({ whole: '3', raised: '99' });
  });

  it('reads "99" set close that both the first reading and the one from its ink rows take for "929"', async () => {
    // "$5⁹⁹" of a generated en-CA page: the tile's price read 5.29. Read before, both readings of
    // the raised part were "929" at these offsets and regions; its glyphs drawn apart read "99".
    const readings = [];
    for (const [left, gap, region] of [
      [10, 4, { x: 8, y: 44, width: 200, height: 83 }],
      [10.5, 1, { x: 8, y: 46, width: 200, height: 83 }],
    ] as const) {
      const image = await condensedPrice('#111', left, [
        ['$', 44, 80],
        ['5', 96, 120, 2],
        ['99', 44, 80, gap],
      ]);
      const [reading] = await engine.readPrices(image, [region]);
      readings.push([reading?.whole, reading?.raised]);
    }
    expect(readings).toEqual([
      ['5', '99'],
      ['5', '99'],
    ]);
  });
});

describe.runIf(existsSync(CONDENSED))('TesseractEngine.readPrices of close-set whole digits', () => {
  it('reads each digit of "11" and "71," that the first reading merged or lost', async () => {
    const readings = [];
    for (const [whole, colour] of [
      ['11', '#c00'],
      ['71,', '#1d4f91'],
    ] as const) {
      // Read before, "11" was "1" and "71," only ",".
      const image = await condensedPrice(colour, 10, [
        [whole, 96, 120],
        ['99', 44, 80, 4],
      ]);
      const [reading] = await engine.readPrices(image, [{ x: 5, y: 40, width: 220, height: 94 }]);
      readings.push([reading?.whole.replace(',', ''), reading?.raised]);
    }
    expect(readings).toEqual([
      ['11', '99'],
      ['71', '99'],
    ]);
  });
});

/** Rows of a picture that hold any ink. */
async function inkRowCount(png: Buffer): Promise<number> {
  const picture = await loadImage(png);
  const { canvas, g } = whiteCanvas(picture.width, picture.height);
  g.drawImage(picture, 0, 0);
  const { data } = g.getImageData(0, 0, canvas.width, canvas.height);
  let rows = 0;
  for (let y = 0; y < canvas.height; y += 1) {
    for (let x = 0; x < canvas.width; x += 1) {
      const i = (y * canvas.width + x) * 4;
      if (Math.min(data[i]!, data[i + 1]!, data[i + 2]!) < 128) {
        rows += 1;
        break;
      }
    }
  }
  return rows;
}

describe('readPriceGlyphs, raised cents read again', () => {
  /** A digit reader answering in turn what tesseract answered for "$3⁷⁹" on a generated page. */
  function scriptedReader(answers: string[]) {
    const heights: number[] = [];
    const worker = {
      recognize: async (png: Buffer) => {
        heights.push((await loadImage(png)).height);
        return { data: { text: answers.shift() ?? '', confidence: 90 } };
      },
    } as unknown as Worker;
    return { worker, heights };
  }

  /** "3" tall, "79" raised and small, in a region twice as tall as the cents. */
  function price(): Buffer {
    const { canvas, g } = whiteCanvas(300, 180);
    g.fillStyle = '#c0306a';
    g.fillRect(40, 60, 40, 70); // the tall "3"
    g.fillRect(86, 62, 14, 28); // "7"
    g.fillRect(104, 62, 14, 28); // "9"
    return canvas.toBuffer('image/png');
  }

  it('reads one raised digit again from the rows of its ink ("9" → "79")', async () => {
    const { worker, heights } = scriptedReader(['3', '9', '79']);
    const [reading] = await readPriceGlyphs(worker, price(), [{ x: 20, y: 20, width: 200, height: 130 }]);
    expect(reading).toMatchObject({ whole: '3', raised: '79' });
    expect(heights).toHaveLength(3); // the whole part, the raised part, the raised part again
  });

  it('keeps two raised digits, and a comma read as "1", as first read', async () => {
    for (const raised of ['79', '149']) {
      const { worker, heights } = scriptedReader(['3', raised]);
      const [reading] = await readPriceGlyphs(worker, price(), [{ x: 20, y: 20, width: 200, height: 130 }]);
      expect(reading).toMatchObject({ whole: '3', raised });
      expect(heights).toHaveLength(2);
    }
  });

  it('reads again at most MAX_REREADS parts a call (a hostile picture of prices that all read wrong)', async () => {
    const { worker, heights } = scriptedReader([]); // every reading empty: every raised part reads wrong
    const regions = Array.from({ length: MAX_REREADS + 10 }, () => ({
      x: 20,
      y: 20,
      width: 200,
      height: 130,
    }));
    await readPriceGlyphs(worker, price(), regions);
    expect(heights).toHaveLength(2 * regions.length + MAX_REREADS);
  });

  it('reads the two raised glyphs drawn apart when the second reading gives no two digits either', async () => {
    const { worker, heights } = scriptedReader(['3', '929', '929', '79']);
    const [reading] = await readPriceGlyphs(worker, price(), [{ x: 20, y: 20, width: 200, height: 130 }]);
    expect(reading).toMatchObject({ whole: '3', raised: '79' });
    expect(heights).toHaveLength(4);
  });

  it("reads the raised glyphs drawn apart at the reader's height, however low they sit in the raised part", async () => {
    const { canvas, g } = whiteCanvas(300, 220);
    g.fillStyle = '#c0306a';
    g.fillRect(40, 100, 40, 90); // the tall "3", under a region that starts high above it
    g.fillRect(86, 95, 14, 28); // "7"
    g.fillRect(104, 95, 14, 28); // "9"
    const inkRows: number[] = [];
    const answers = ['3', '9', '7', '79'];
    const worker = {
      recognize: async (png: Buffer) => {
        inkRows.push(await inkRowCount(png));
        return { data: { text: answers.shift() ?? '', confidence: 90 } };
      },
    } as unknown as Worker;
    const [reading] = await readPriceGlyphs(worker, canvas.toBuffer('image/png'), [
      { x: 20, y: 20, width: 200, height: 175 },
    ]);
    expect(reading).toMatchObject({ whole: '3', raised: '79' });
    // The reader draws at 40 px: drawn from the raised part's whole height, the digits were 10 px.
    expect(inkRows[3]).toBeGreaterThan(24);
  });

  it('looks for raised glyphs in a hostile raised part of 180,000 specks without failing', async () => {
    const { canvas, g } = whiteCanvas(1000, 800);
    g.fillStyle = '#000';
    g.fillRect(40, 100, 40, 600); // a tall part
    const specks = g.getImageData(90, 30, 800, 450);
    for (let y = 0; y < 450; y += 1) {
      for (let x = (y % 2) * 1; x < 800; x += 2)
        specks.data.fill(0, (y * 800 + x) * 4, (y * 800 + x) * 4 + 3);
    }
    g.putImageData(specks, 90, 30);
    const { worker, heights } = scriptedReader([]);
    const [reading] = await readPriceGlyphs(worker, canvas.toBuffer('image/png'), [
      { x: 20, y: 20, width: 960, height: 750 },
    ]);
    expect(reading).toMatchObject({ raised: '' });
    expect(heights).toHaveLength(3); // no third reading: the specks are no two digits
  });

  it('does not read apart a raised part whose region cut through a digit (two pieces, one over the other)', async () => {
    const { canvas, g } = whiteCanvas(300, 180);
    g.fillStyle = '#c0306a';
    g.fillRect(40, 60, 40, 70); // the tall "3"
    g.fillRect(86, 62, 26, 12); // the top of a cut "4"
    g.fillRect(86, 80, 26, 24); // its foot
    // Drawn apart, the pieces read "11": the price would have become 3.11.
    const { worker, heights } = scriptedReader(['3', '', '', '11']);
    const [reading] = await readPriceGlyphs(worker, canvas.toBuffer('image/png'), [
      { x: 20, y: 20, width: 200, height: 130 },
    ]);
    expect(reading).toMatchObject({ whole: '3', raised: '' });
    expect(heights).toHaveLength(3);
  });

  it('keeps the first reading when the second gives no two digits either', async () => {
    const { worker } = scriptedReader(['3', '9', '7']);
    const [reading] = await readPriceGlyphs(worker, price(), [{ x: 20, y: 20, width: 200, height: 130 }]);
    expect(reading).toMatchObject({ whole: '3', raised: '9' });
  });
});

describe.runIf(existsSync(CONDENSED))('TesseractEngine.readPrices of inline prices', () => {
  it('is as sure of "2,99 €" as of its glyphs: the last digit, cut by the euro sign, does not zero it', async () => {
    GlobalFonts.registerFromPath(CONDENSED, 'CondensedFace');
    const { canvas, g } = whiteCanvas(900, 140);
    g.fillStyle = '#c0392b';
    g.font = 'bold 72px CondensedFace';
    const prices = ['2,99', '5,99', '6,49'];
    // The regions as the page reader cuts them: the euro sign's left part inside.
    const regions = prices.map((price, i) => {
      g.fillText(`${price} €`, 20 + i * 300, 100);
      return { x: 18 + i * 300, y: 36, width: 194, height: 77 };
    });
    const readings = await engine.readPrices(canvas.toBuffer('image/png'), regions);
    expect(readings.map((r) => r?.whole.replace(/[^\d,]/g, ''))).toEqual(prices);
    // tesseract's figure for each line was 0, its glyphs' 98, 99, 98 and one low.
    for (const reading of readings) expect(reading!.confidence).toBeGreaterThan(0.5);
  });
});

describe.runIf(existsSync(CONDENSED))('TesseractEngine.readPrices of a region that cuts the digits', () => {
  it("reads '$3⁵⁰' when the region ends above the 3's foot (OCR's box of the price stops short)", async () => {
    // Read before, the whole part was "" (a 3 without its foot) and the page kept OCR's "9.50".
    const image = await condensedPrice('#c0306a', 10, [
      ['$', 44, 80],
      ['3', 96, 120, 2],
      ['50', 44, 80, 4],
    ]);
    const [reading] = await engine.readPrices(image, [{ x: 8, y: 40, width: 200, height: 68 }]);
    expect(reading).toMatchObject({ whole: '3', raised: '50' });
  });
});

describe.runIf(existsSync(CONDENSED))('TesseractEngine.readPrices of a raised sign that dips low', () => {
  it('keeps a "$" that reaches into the lower part of the region out of the whole part', async () => {
    // Read before, the whole part was "$3": the sign's foot lay in the region's low band.
    const image = await condensedPrice('#d0021b', 10, [
      ['$', 54, 88],
      ['3', 96, 120, 2],
      ['79', 44, 80, 4],
    ]);
    const [reading] = await engine.readPrices(image, [{ x: 6, y: 40, width: 200, height: 76 }]);
    expect(reading).toMatchObject({ whole: '3', raised: '79' });
  });
});

describe.runIf(existsSync(CONDENSED))('TesseractEngine.readPrices beside a tile frame', () => {
  it("leaves out a frame's side that runs through the region's whole height", async () => {
    // Read before, the side was the "1" of "12.99" (a generated Canadian page's "$2⁹⁹").
    const price = await condensedPrice('#d0021b', 24, [
      ['2', 96, 120],
      ['99', 44, 80, 4],
    ]);
    const image = await drawnOver(price, (g) => {
      g.fillStyle = '#d0021b';
      g.fillRect(6, 0, 3, 160); // the tile's left side
    });
    const [reading] = await engine.readPrices(image, [{ x: 5, y: 36, width: 200, height: 100 }]);
    expect(reading).toMatchObject({ whole: '2', raised: '99' });
  });
});

describe.runIf(existsSync(CONDENSED))('TesseractEngine.readPrices under a line of text', () => {
  it('reads the whole part without the descenders of the line above it', async () => {
    // Read before, the foot of "5 g" over the "2" of "$2⁹⁹" made it a "5".
    const price = await condensedPrice('#d0021b', 24, [
      ['2', 96, 130],
      ['99', 44, 90, 4],
    ]);
    const image = await drawnOver(price, (g) => {
      g.fillStyle = '#444';
      g.font = '30px CondensedFace';
      g.fillText('675 g', 4, 44);
    });
    const [reading] = await engine.readPrices(image, [{ x: 20, y: 38, width: 200, height: 104 }]);
    expect(reading).toMatchObject({ whole: '2', raised: '99' });
  });
});

describe.runIf(existsSync(CONDENSED))(
  'TesseractEngine.readPrices after a small currency sign on the baseline',
  () => {
    it.each([
      ['€', '4', '99'],
      ['€', '0', '89'],
      ['R$', '7', '65'],
    ])(
      'keeps a low "%s" before the digits out of the whole part ("%s" with "%s")',
      async (sign, whole, cents) => {
        // Read before, the sign stood in the whole part: "R$7,⁶⁵" read "," (the euro signs, drawn so,
        // read right; on an Italian flyer's tiles one read as a "1", handled in extraction).
        const image = await condensedPrice('#d0021b', 10, [
          [sign, 40, 120],
          [`${whole},`, 110, 120, 2],
          [cents, 50, 78, 2],
        ]);
        const [reading] = await engine.readPrices(image, [{ x: 4, y: 30, width: 260, height: 100 }]);
        expect([reading?.whole.replace(/,$/, ''), reading?.raised]).toEqual([whole, cents]);
      },
    );
  },
);

describe.runIf(existsSync(CONDENSED))('TesseractEngine.readPrices of digits short for their region', () => {
  it('still reads digits none of which is two fifths of the region high (no sign is left out)', async () => {
    const image = await condensedPrice('#d0021b', 20, [['7,99', 36, 128]]);
    const [reading] = await engine.readPrices(image, [{ x: 10, y: 36, width: 200, height: 100 }]);
    expect(reading?.whole).toContain('7');
  });
});

describe.runIf(existsSync(CONDENSED))(
  'TesseractEngine.readPrices over a unit price set under the cents',
  () => {
    it('reads "11,⁴⁹" whose raised cents stand over a small line on the digits\' baseline', async () => {
      // As an Italian flyer's tile prints "€ 16,14 al kg" under the "⁴⁹" of "11,⁴⁹" (there white on
      // red). Read before, its small letters on the baseline made the cents part of the tall digits.
      const price = await condensedPrice('#d0021b', 10, [
        ['11,', 110, 124],
        ['49', 50, 76, 2],
      ]);
      const image = await drawnOver(price, (g) => {
        g.font = 'bold 110px CondensedFace';
        const cents = 10 + g.measureText('11,').width + 2;
        g.fillStyle = '#d0021b';
        g.font = '15px CondensedFace';
        g.fillText('€ 16,14 al kg', cents, 124);
      });
      const [reading] = await engine.readPrices(image, [{ x: 4, y: 30, width: 280, height: 100 }]);
      expect([reading?.whole.replace(/,$/, ''), reading?.raised]).toEqual(['11', '49']);
    });
  },
);

describe.runIf(existsSync(CONDENSED))('TesseractEngine.readPrices of white type on a plaque', () => {
  /**
   * A red plaque on the page with a white price on it; the region starts over the plaque, on the
   * page. `centsBaseline` 112 sets the cents' top level with the whole part's; 98, above it.
   */
  async function plaquePrice(whole: string, cents: string, centsBaseline = 112): Promise<Buffer> {
    GlobalFonts.registerFromPath(CONDENSED, 'CondensedFace');
    const { canvas, g } = whiteCanvas(320, 200);
    g.fillStyle = '#333';
    g.font = '16px CondensedFace';
    g.fillText('712 g', 120, 30); // the tile's pack size over the plaque
    g.fillStyle = '#d0021b';
    g.fillRect(30, 50, 250, 130);
    g.fillStyle = '#ffffff';
    g.font = 'bold 110px CondensedFace';
    g.fillText(`${whole},`, 50, 160);
    const x = 50 + g.measureText(`${whole},`).width + 2;
    g.font = 'bold 52px CondensedFace';
    g.fillText(cents, x, centsBaseline);
    const compressed = await loadImage(canvas.toBuffer('image/jpeg', 80));
    const page = createCanvas(320, 200);
    page.getContext('2d').drawImage(compressed, 0, 0);
    return page.toBuffer('image/png');
  }

  it.each([
    ['11', '49'],
    ['2', '95'],
  ])(
    'reads "%s,%s" apart, whole part and raised cents, as it reads dark type on paper',
    async (whole, cents) => {
      // Read before, the plaque was one shape of ink through the region: no whole part and raised
      // cents were told apart.
      const image = await plaquePrice(whole, cents);
      const [reading] = await engine.readPrices(image, [{ x: 10, y: 36, width: 300, height: 130 }]);
      // The decimal comma, left on the whole part ("11," or "11."), is the extraction's to drop.
      expect([reading?.whole.replace(/[.,]$/, ''), reading?.raised]).toEqual([whole, cents]);
    },
  );

  it.each([
    ['11', '99'],
    ['4', '99'],
    ['7', '00'],
  ])('reads the raised cents of "%s,%s" where they rise above the whole part', async (whole, cents) => {
    // Read before from the whole part's top, the raised part cut the tops of its digits: "⁹⁹" and
    // "⁰⁰" read as nothing.
    const image = await plaquePrice(whole, cents, 98);
    const [reading] = await engine.readPrices(image, [{ x: 10, y: 36, width: 300, height: 130 }]);
    expect([reading?.whole.replace(/[.,]$/, ''), reading?.raised]).toEqual([whole, cents]);
  });

  it('reads "11" whose first one has the euro sign set under its flag', async () => {
    // A display face's ones as slabs with a flag at the top left, and a small "€" on the baseline
    // under the first one's flag. Drawn apart, that one's columns held a piece of the "€" too,
    // and the two ones read as nothing: the price was read "1.49" from the second one on.
    GlobalFonts.registerFromPath(CONDENSED, 'CondensedFace');
    const { canvas, g } = whiteCanvas(360, 200);
    g.fillStyle = '#d22';
    g.fillRect(10, 30, 330, 150);
    g.fillStyle = '#fff';
    for (const x of [70, 130]) {
      g.fillRect(x, 56, 38, 104);
      g.beginPath();
      g.moveTo(x, 56);
      g.lineTo(x - 18, 74);
      g.lineTo(x - 18, 90);
      g.lineTo(x, 80);
      g.fill();
    }
    g.font = 'bold 40px CondensedFace';
    g.fillText('€', 38, 160);
    g.font = 'bold 60px CondensedFace';
    g.fillText('49', 176, 100);
    const [reading] = await engine.readPrices(canvas.toBuffer('image/png'), [
      { x: 15, y: 40, width: 330, height: 130 },
    ]);
    expect([reading?.whole, reading?.raised]).toEqual(['11', '49']);
  });

  it('leaves dark type on paper as it reads it (no plaque)', async () => {
    const image = await condensedPrice('#d0021b', 10, [
      ['2', 96, 120],
      ['49', 44, 80, 4],
    ]);
    const [reading] = await engine.readPrices(image, [{ x: 5, y: 40, width: 220, height: 94 }]);
    expect(reading).toMatchObject({ whole: '2', raised: '49' });
  });
});
