import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas, GlobalFonts, loadImage } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { rasteriseFlyer } from '../../../bench/flyers/rasterise-flyer.ts';
import { UnpdfReader } from '../pdf/unpdf-reader.ts';
import { LineDirectionClassifier } from './line-direction.ts';
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

/** Lines of type one under the other, and their boxes; drawn upside down when `turned`. */
function linesOfType(turned: boolean): { png: Buffer; lines: ImageRegion[] } {
  GlobalFonts.registerFromPath(FACE, 'Body');
  const [width, height] = [700, 60 + NAMES.length * 50];
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, width, height);
  if (turned) {
    g.translate(width, height);
    g.rotate(Math.PI);
  }
  g.fillStyle = '#222';
  g.font = '30px Body';
  const lines = NAMES.map((name, i) => {
    g.fillText(name, 30, 70 + i * 50);
    const box = { x: 24, y: 40 + i * 50, width: g.measureText(name).width + 12, height: 42 };
    return turned ? { ...box, x: width - box.x - box.width, y: height - box.y - box.height } : box;
  });
  return { png: canvas.toBuffer('image/png'), lines };
}

describe.runIf(existsSync(FACE))('lines of type, upright or upside down', () => {
  const classifier = new LineDirectionClassifier();
  afterAll(() => classifier.close());

  it('are told apart line by line', async () => {
    const upright = linesOfType(false);
    expect(await classifier.directions(await loadImage(upright.png), upright.lines)).toMatchObject({
      upsideDown: 0,
    });
    expect(
      (await classifier.directions(await loadImage(upright.png), upright.lines)).upright,
    ).toBeGreaterThan(5);
    const turned = linesOfType(true);
    const directions = await classifier.directions(await loadImage(turned.png), turned.lines);
    expect(directions.upright).toBe(0);
    expect(directions.upsideDown).toBeGreaterThan(5);
  });

  it('are not judged where no line lies down (a page turned a quarter: its lines stand on end)', async () => {
    const { png, lines } = linesOfType(false);
    const standing = lines.map((l) => ({ x: l.y, y: l.x, width: l.height, height: l.width }));
    expect(await classifier.directions(await loadImage(png), standing)).toEqual({
      upright: 0,
      upsideDown: 0,
    });
  });
});

describe.runIf(existsSync(PHOTO_FLYER))('a page of photos scanned upside down', () => {
  const engine = new TesseractEngine();
  afterAll(() => engine.close());

  it('is turned upright by its lines, where the orientation detection took it for upright', async () => {
    // The real spn flyer's pages (photos, type on plaques) drawn to JPEG upside down: tesseract's
    // orientation detection found both upright.
    const labels = { file: 'spn.pdf', pages_labelled: [1], offers: [] };
    const flyer = await rasteriseFlyer(new Uint8Array(readFileSync(PHOTO_FLYER)), labels, {
      dpi: 150,
      quality: 85,
      quarterTurns: 2,
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
        // Half a turn: the same size, and its lines now stand upright.
        const picture = await loadImage(turned!);
        expect([picture.width, picture.height]).toEqual([scan!.width, scan!.height]);
        const directions = await classifier.directions(picture, await detector.detect(turned!));
        expect(directions.upright).toBeGreaterThan(directions.upsideDown * 5);
      }
    } finally {
      await Promise.all([classifier.close(), detector.close(), doc.close()]);
    }
  });
});
