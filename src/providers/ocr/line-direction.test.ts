import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas, GlobalFonts, loadImage } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { rasteriseFlyer } from '../../../bench/flyers/rasterise-flyer.ts';
import { UnpdfReader } from '../pdf/unpdf-reader.ts';
import { LineDirectionClassifier, type Turn } from './line-direction.ts';
import type { ImageRegion } from './ocr.ts';
import { encodePng } from './png.ts';
import { TesseractEngine } from './tesseract-engine.ts';
import { TextLineDetector } from './text-detector.ts';

const FACE = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
/** The shared data sits beside the project (../shared from its root), wherever it is cloned. */
const PHOTO_FLYER = path.resolve(
  import.meta.dirname,
  '../../../../shared/data/flyers-real/spn-super-sacolao-br.pdf',
);
const NAMES = [
  'Fresh Strawberries one pound',
  'Boneless Chicken Breast',
  'Whole Milk one gallon',
  'Cheddar Cheese Block 8 oz',
  'Long Grain White Rice 5 lb',
  'Crushed Tomatoes 28 oz can',
  'Orange Juice 52 fl oz',
  'Atlantic Salmon Fillet',
];

/** Lines of type one under the other, and their boxes, the picture turned `turn` clockwise. */
function linesOfType(turn: Turn): { png: Buffer; lines: ImageRegion[] } {
  GlobalFonts.registerFromPath(FACE, 'Body');
  const [width, height] = [700, 60 + NAMES.length * 50];
  const upright = createCanvas(width, height);
  const g = upright.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#222';
  g.font = '30px Body';
  const boxes = NAMES.map((name, i) => {
    g.fillText(name, 30, 70 + i * 50);
    return { x: 24, y: 40 + i * 50, width: g.measureText(name).width + 12, height: 42 };
  });
  const sideways = turn === 90 || turn === 270;
  const turned = createCanvas(sideways ? height : width, sideways ? width : height);
  const t = turned.getContext('2d');
  t.translate(turned.width / 2, turned.height / 2);
  t.rotate((turn * Math.PI) / 180);
  t.drawImage(upright, -width / 2, -height / 2);
  const lines = boxes.map(({ x, y, width: w, height: h }) => {
    if (turn === 90) return { x: height - y - h, y: x, width: h, height: w };
    if (turn === 180) return { x: width - x - w, y: height - y - h, width: w, height: h };
    if (turn === 270) return { x: y, y: width - x - w, width: h, height: w };
    return { x, y, width: w, height: h };
  });
  return { png: turned.toBuffer('image/png'), lines };
}

describe.runIf(existsSync(FACE))('lines of type on a page turned any quarter', () => {
  const classifier = new LineDirectionClassifier();
  afterAll(() => classifier.close());

  it.each([
    { turned: 0, back: 0 },
    { turned: 90, back: 270 },
    { turned: 180, back: 180 },
    { turned: 270, back: 90 },
  ] as const)('are found to need $back° clockwise when turned $turned°', async ({ turned, back }) => {
    const { png, lines } = linesOfType(turned);
    const turns = await classifier.turns(await loadImage(png), lines);
    expect(turns[back]).toBeGreaterThan(5);
    const others = ([0, 90, 180, 270] as const).filter((t) => t !== back).map((t) => turns[t]);
    expect(Math.max(...others)).toBeLessThanOrEqual(1);
  });

  it('are not judged where none is longer than it is wide or tall (specks, square marks)', async () => {
    const { png } = linesOfType(0);
    const squares = [0, 1, 2].map((i) => ({ x: 30 + i * 60, y: 40, width: 40, height: 40 }));
    expect(await classifier.turns(await loadImage(png), squares)).toEqual({ 0: 0, 90: 0, 180: 0, 270: 0 });
  });
});

describe.runIf(existsSync(PHOTO_FLYER))('a page of photos scanned turned', () => {
  const engine = new TesseractEngine();
  afterAll(() => engine.close());

  it.each([
    { quarterTurns: 2, how: 'upside down' },
    { quarterTurns: 1, how: 'sideways' },
  ] as const)(
    'is turned upright by its lines when $how, where the orientation detection took it for upright',
    async ({ quarterTurns }) => {
      // The real spn flyer's pages (photos, type on plaques) drawn to JPEG turned: tesseract's
      // orientation detection found both upright upside down, and the first sideways.
      const labels = { file: 'spn.pdf', pages_labelled: [1], offers: [] };
      const flyer = await rasteriseFlyer(new Uint8Array(readFileSync(PHOTO_FLYER)), labels, {
        dpi: 150,
        quality: 85,
        quarterTurns,
      });
      const doc = await new UnpdfReader().open(flyer!.pdf);
      const classifier = new LineDirectionClassifier();
      const detector = new TextLineDetector();
      try {
        for (let page = 1; page <= doc.pageCount; page += 1) {
          const [scan] = await doc.images(page);
          const png = encodePng(scan!.width, scan!.height, scan!.channels, scan!.data);
          const turned = await engine.upright(png);
          expect(turned, `page ${page}`).toBeDefined();
          // The page's shape, and its lines now stand upright.
          const picture = await loadImage(turned!);
          const sides = [scan!.width, scan!.height];
          expect([picture.width, picture.height]).toEqual(quarterTurns === 2 ? sides : sides.reverse());
          const turns = await classifier.turns(picture, await detector.detect(turned!));
          expect(turns[0]).toBeGreaterThan(Math.max(turns[90], turns[180], turns[270]) * 5);
        }
      } finally {
        await Promise.all([classifier.close(), detector.close(), doc.close()]);
      }
    },
  );
});
