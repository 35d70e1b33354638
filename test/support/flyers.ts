import { sql } from 'kysely';
import { readFileSync } from 'node:fs';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  PDFName,
  popGraphicsState,
  pushGraphicsState,
  setFillingGrayscaleColor,
  StandardFonts,
  rgb,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';
import type { DatabaseHandle } from '../../src/platform/db/database.ts';
import { jobSchemaFor } from '../../src/platform/jobs/queue.ts';
import { encodePng } from '../../src/providers/ocr/png.ts';
import type { TestApp } from './app.ts';

/**
 * Generated flyers of several layouts (pdf-lib), for the flyer parser and the job pipeline.
 * Each builder answers the PDF bytes and the offers a reader should find.
 */
export interface ExpectedOffer {
  product: string;
  brand: string;
  original_price: number;
  discounted_price: number;
  unit: string;
}

export interface GeneratedFlyer {
  bytes: Uint8Array;
  expected: ExpectedOffer[];
}

const A4: [number, number] = [595, 842];

function text(page: PDFPage, font: PDFFont, value: string, x: number, yFromTop: number, size = 12): void {
  page.drawText(value, { x, y: page.getHeight() - yFromTop - size, size, font, color: rgb(0, 0, 0) });
}

/** A new A4 document of one page, with Helvetica and its bold embedded. */
async function textPage(): Promise<{ pdf: PDFDocument; font: PDFFont; bold: PDFFont; page: PDFPage }> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  return { pdf, font, bold, page: pdf.addPage(A4) };
}

/** A tile's grey frame, 250 points wide, its text starting at (x, y) from the page's top. */
function tileFrame(page: PDFPage, x: number, y: number, height: number): void {
  page.drawRectangle({
    x: x - 10,
    y: A4[1] - y - height + 10,
    width: 250,
    height,
    borderWidth: 1,
    borderColor: rgb(0.6, 0.6, 0.6),
  });
}

/** German row layout: name, pack size, struck regular price and "jetzt nur" price far apart on one line. */
export async function rowFlyer(): Promise<GeneratedFlyer> {
  const { pdf, font, bold, page } = await textPage();
  text(page, bold, 'Wochenangebote', 200, 40, 20);
  text(page, font, 'Angebote gültig vom 12.10. bis 17.10.2030', 170, 70, 11);
  const rows: Array<[string, string, string, string]> = [
    ['Butter (Kerrygold)', '250 g', '3,49 €', 'jetzt nur 2,49 €'],
    ['Bananen', 'per kg', '1,99 €', 'jetzt nur 1,29 €'],
    ['Vollmilch', '1 l', '1,19 €', '0,99 €'],
  ];
  rows.forEach(([name, unit, old, now], i) => {
    const y = 140 + i * 34;
    text(page, font, name, 60, y, 13);
    text(page, font, unit, 230, y, 13);
    text(page, font, old, 340, y, 11);
    page.drawLine({ start: { x: 338, y: A4[1] - y - 6 }, end: { x: 380, y: A4[1] - y - 6 }, thickness: 1 });
    text(page, bold, now, 420, y, 13);
  });
  text(page, font, 'Filiale Hauptstraße 12, 10115 Berlin, Tel. 030 1234567', 120, 780, 9);
  return {
    bytes: await pdf.save(),
    expected: [
      { product: 'Butter', brand: 'Kerrygold', original_price: 3.49, discounted_price: 2.49, unit: '250 g' },
      { product: 'Bananen', brand: '', original_price: 1.99, discounted_price: 1.29, unit: 'per kg' },
      { product: 'Vollmilch', brand: '', original_price: 1.19, discounted_price: 0.99, unit: '1 l' },
    ],
  };
}

/** English tile layout: two columns of tiles (brand line, product line, price line, unit line). */
export async function tileFlyer(): Promise<GeneratedFlyer> {
  const { pdf, font, bold, page } = await textPage();
  text(page, bold, 'FRESH DEALS', 220, 30, 22);
  text(page, font, 'Prices valid until 12/30/2030', 210, 62, 11);
  const tiles = [
    { col: 0, row: 0, brand: 'Dole', product: 'Bananas', price: '$0.59', old: '$0.79', unit: 'per lb' },
    { col: 1, row: 0, brand: 'Chiquita', product: 'Avocados', price: '2 for $5', old: '', unit: '' },
    {
      col: 0,
      row: 1,
      brand: 'Horizon',
      product: 'Organic Whole Milk',
      price: 'was 3.49 now 2.99',
      old: '',
      unit: '1 gal',
    },
    { col: 1, row: 1, brand: 'Tillamook', product: 'Cheddar Cheese', price: '4.99$', old: '', unit: '/lb' },
  ];
  for (const t of tiles) {
    const x = 60 + t.col * 280;
    const y = 120 + t.row * 200;
    tileFrame(page, x, y, 160);
    text(page, font, t.brand, x, y, 10);
    text(page, bold, t.product, x, y + 16, 14);
    text(page, bold, t.price, x, y + 60, 20);
    if (t.old) {
      text(page, font, t.old, x + 130, y + 64, 12);
      page.drawLine({
        start: { x: x + 128, y: A4[1] - y - 70 },
        end: { x: x + 168, y: A4[1] - y - 70 },
        thickness: 1,
      });
    }
    if (t.unit) text(page, font, t.unit, x, y + 88, 10);
  }
  return {
    bytes: await pdf.save(),
    expected: [
      { product: 'Bananas', brand: 'Dole', original_price: 0.79, discounted_price: 0.59, unit: 'per lb' },
      { product: 'Avocados', brand: 'Chiquita', original_price: 2.5, discounted_price: 2.5, unit: 'each' },
      {
        product: 'Organic Whole Milk',
        brand: 'Horizon',
        original_price: 3.49,
        discounted_price: 2.99,
        unit: '1 gal',
      },
      {
        product: 'Cheddar Cheese',
        brand: 'Tillamook',
        original_price: 4.99,
        discounted_price: 4.99,
        unit: 'per lb',
      },
    ],
  };
}

/**
 * British tile layout: a loyalty card's price over its regular one ("Clubcard Price £3.00", "Regular
 * Price £4.25"), pence ("18p", "2 for 90p") and a validity range across two months.
 */
export async function britishFlyer(): Promise<GeneratedFlyer> {
  const { pdf, font, bold, page } = await textPage();
  text(page, bold, 'THIS WEEK AT THE CORNER SHOP', 140, 30, 20);
  text(page, font, 'From Wednesday 30th October to Tuesday 5th November', 150, 60, 11);
  const tiles = [
    { product: 'Mature Cheddar 350g', lines: ['Clubcard Price', '£3.00', 'Regular Price £4.25'] },
    { product: 'Loose Bananas each', lines: ['18p'] },
    { product: 'Brown Onions 1kg', lines: ['2 for 90p'] },
    { product: 'Garden Peas 900g', lines: ['£1.50', 'Was £2.00'] },
  ];
  tiles.forEach((tile, n) => {
    const x = 60 + (n % 2) * 280;
    const y = 120 + Math.floor(n / 2) * 220;
    tileFrame(page, x, y, 180);
    text(page, bold, tile.product, x, y, 14);
    let top = y + 30;
    for (const line of tile.lines) {
      const size = line.startsWith('£') || /\dp$/u.test(line) ? 26 : 11;
      text(page, size > 11 ? bold : font, line, x, top, size);
      top += size + 12;
    }
  });
  return {
    bytes: await pdf.save(),
    expected: [
      { product: 'Mature Cheddar', brand: '', original_price: 4.25, discounted_price: 3, unit: '350g' },
      { product: 'Loose Bananas', brand: '', original_price: 0.18, discounted_price: 0.18, unit: 'each' },
      { product: 'Garden Peas', brand: '', original_price: 2, discounted_price: 1.5, unit: '900g' },
      { product: 'Brown Onions', brand: '', original_price: 0.45, discounted_price: 0.45, unit: '1kg' },
    ],
  };
}

/** One offer line per page, `pages` pages: for progress, restarts and several workers. */
export async function multiPageFlyer(pages: number, label = 'Item'): Promise<GeneratedFlyer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const expected: ExpectedOffer[] = [];
  for (let n = 1; n <= pages; n += 1) {
    const page = pdf.addPage(A4);
    const old = 2 + n;
    const now = 1 + n + 0.49;
    text(page, font, `${label} Number ${n}`, 60, 100, 13);
    text(page, font, '500 g', 250, 100, 13);
    text(page, font, `${old.toFixed(2)} €`, 340, 100, 11);
    text(page, font, `jetzt ${now.toFixed(2)} €`, 420, 100, 13);
    expected.push({
      product: `${label} Number ${n}`,
      brand: '',
      original_price: old,
      discounted_price: now,
      unit: '500 g',
    });
  }
  return { bytes: await pdf.save(), expected };
}

/** A page without a text layer: the offer is only pixels of an embedded image (a scanned flyer). */
export async function imageOnlyFlyer(lines: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage(A4);
  const image = await pdf.embedPng(renderLines(lines, 6));
  const width = A4[0];
  const height = (image.height / image.width) * width;
  page.drawImage(image, { x: 0, y: A4[1] - height, width, height });
  return pdf.save();
}

/**
 * `imageOnlyFlyer`'s page with its picture in JPEG 2000 (JPXDecode), as scanners and PDF optimisers
 * write it: `test/fixtures/image-page.jp2` is `renderLines(IMAGE_PAGE_LINES, 6)` encoded by
 * OpenJPEG's `opj_compress -r 20` (Debian's libopenjp2-tools; no JPEG 2000 encoder ships on npm).
 */
export const IMAGE_PAGE_LINES = ['WEEKLY SPECIALS', 'COFFEE      $7.99', 'TOMATO SOUP     $1.49'];

export async function jpeg2000Flyer(): Promise<Uint8Array> {
  const jp2 = readFileSync(new URL('../fixtures/image-page.jp2', import.meta.url));
  const [width, height] = [852, 312];
  const pdf = await PDFDocument.create();
  const page = pdf.addPage(A4);
  const image = pdf.context.register(
    pdf.context.stream(jp2, {
      Type: 'XObject',
      Subtype: 'Image',
      Width: width,
      Height: height,
      ColorSpace: 'DeviceGray',
      BitsPerComponent: 8,
      Filter: 'JPXDecode',
    }),
  );
  const drawnHeight = (height / width) * A4[0];
  page.node.setXObject(PDFName.of('Scan'), image);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(A4[0], 0, 0, drawnHeight, 0, A4[1] - drawnHeight),
    drawObject('Scan'),
    popGraphicsState(),
  );
  return pdf.save();
}

/**
 * A page whose text is only vector outlines (as when a designer converts fonts to paths): no text
 * layer and no embedded image; the same lettering as `imageOnlyFlyer`, drawn as filled squares.
 */
export async function vectorOnlyFlyer(lines: string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage(A4);
  const dot = 2.4; // points per font dot: ~17 pt tall capitals
  lines.forEach((line, row) => {
    [...line.toUpperCase()].forEach((char, col) => {
      GLYPHS[char]?.forEach((bits, gy) => {
        [...bits].forEach((bit, gx) => {
          if (bit !== '#') return;
          page.drawRectangle({
            x: 40 + (col * 6 + gx) * dot,
            y: A4[1] - 60 - (row * 12 + gy + 1) * dot,
            width: dot,
            height: dot,
            color: rgb(0, 0, 0),
          });
        });
      });
    });
  });
  return pdf.save();
}

/*
 * A 5×7 bitmap font (rows top to bottom, '#' = ink) for the characters the image page uses, so
 * that a raster page can be produced without a canvas package.
 */
const GLYPHS: Record<string, string[]> = {
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  B: ['####.', '#...#', '#...#', '####.', '#...#', '#...#', '####.'],
  C: ['.###.', '#...#', '#....', '#....', '#....', '#...#', '.###.'],
  D: ['####.', '#...#', '#...#', '#...#', '#...#', '#...#', '####.'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  F: ['#####', '#....', '#....', '####.', '#....', '#....', '#....'],
  G: ['.###.', '#...#', '#....', '#.###', '#...#', '#...#', '.###.'],
  H: ['#...#', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  I: ['.###.', '..#..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  K: ['#...#', '#..#.', '#.#..', '##...', '#.#..', '#..#.', '#...#'],
  L: ['#....', '#....', '#....', '#....', '#....', '#....', '#####'],
  M: ['#...#', '##.##', '#.#.#', '#.#.#', '#...#', '#...#', '#...#'],
  N: ['#...#', '##..#', '#.#.#', '#..##', '#...#', '#...#', '#...#'],
  O: ['.###.', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  P: ['####.', '#...#', '#...#', '####.', '#....', '#....', '#....'],
  R: ['####.', '#...#', '#...#', '####.', '#.#..', '#..#.', '#...#'],
  S: ['.####', '#....', '#....', '.###.', '....#', '....#', '####.'],
  T: ['#####', '..#..', '..#..', '..#..', '..#..', '..#..', '..#..'],
  U: ['#...#', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  W: ['#...#', '#...#', '#...#', '#.#.#', '#.#.#', '##.##', '#...#'],
  Y: ['#...#', '#...#', '.#.#.', '..#..', '..#..', '..#..', '..#..'],
  '0': ['.###.', '#...#', '#..##', '#.#.#', '##..#', '#...#', '.###.'],
  '1': ['..#..', '.##..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  '2': ['.###.', '#...#', '....#', '...#.', '..#..', '.#...', '#####'],
  '3': ['####.', '....#', '....#', '.###.', '....#', '....#', '####.'],
  '4': ['...#.', '..##.', '.#.#.', '#..#.', '#####', '...#.', '...#.'],
  '5': ['#####', '#....', '####.', '....#', '....#', '#...#', '.###.'],
  '6': ['.###.', '#....', '#....', '####.', '#...#', '#...#', '.###.'],
  '7': ['#####', '....#', '...#.', '..#..', '.#...', '.#...', '.#...'],
  '8': ['.###.', '#...#', '#...#', '.###.', '#...#', '#...#', '.###.'],
  '9': ['.###.', '#...#', '#...#', '.####', '....#', '....#', '.###.'],
  '.': ['.....', '.....', '.....', '.....', '.....', '.##..', '.##..'],
  $: ['..#..', '.####', '#.#..', '.###.', '..#.#', '####.', '..#..'],
  ' ': ['.....', '.....', '.....', '.....', '.....', '.....', '.....'],
};

/** Renders lines of text (upper case, digits, '.', '$') as a grey PNG at `scale` pixels per dot. */
export function renderLines(lines: string[], scale: number): Uint8Array {
  const margin = 8 * scale;
  const width = margin * 2 + Math.max(...lines.map((l) => l.length)) * 6 * scale;
  const height = margin * 2 + lines.length * 12 * scale;
  return encodePng(width, height, 1, drawLines(lines, scale, width, height));
}

/**
 * `imageOnlyFlyer`'s lines on a page (A4 unless `size` says) scanned whole at `dpi`: one picture of
 * the page's shape, the print the same size in points at any resolution (a dot is a point and a
 * half) unless `dot` gives its pixels; laid `degrees` crooked on the scanner's glass when given
 * (clockwise).
 */
export async function scannedFlyer(
  lines: string[],
  dpi: number,
  {
    size = A4,
    dot,
    degrees = 0,
    quarterTurns = 0,
  }: { size?: [number, number]; dot?: number; degrees?: number; quarterTurns?: 0 | 1 | 2 | 3 } = {},
): Promise<Uint8Array> {
  const [width, height] = size.map((points) => Math.round((points * dpi) / 72)) as [number, number];
  const scale = dot ?? Math.max(1, Math.round((1.5 * dpi) / 72));
  const drawn = drawLines(lines, scale, width, height);
  let scan = { pixels: degrees === 0 ? drawn : turned(drawn, width, height, degrees), width, height };
  for (let turn = 0; turn < quarterTurns; turn += 1) scan = quarterTurn(scan);
  const pdf = await PDFDocument.create();
  // Fed sideways, the page is scanned as one lying on its side.
  const sheet: [number, number] = quarterTurns % 2 === 0 ? size : [size[1], size[0]];
  const page = pdf.addPage(sheet);
  const image = await pdf.embedPng(encodePng(scan.width, scan.height, 1, scan.pixels));
  page.drawImage(image, { x: 0, y: 0, width: sheet[0], height: sheet[1] });
  return pdf.save();
}

/** Grey pixels turned a quarter clockwise. */
function quarterTurn({ pixels, width, height }: { pixels: Uint8Array; width: number; height: number }) {
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) out[x * height + (height - 1 - y)] = pixels[y * width + x]!;
  return { pixels: out, width: height, height: width };
}

/**
 * `scannedFlyer`'s page scanned in black and white, as office scanners and copiers write it: a 1-bit
 * image (8 pixels a byte, rows padded to bytes; a set bit is white: DeviceGray), deflated.
 */
export async function blackAndWhiteScan(lines: string[], dpi: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage(A4);
  const { width, height, bits } = bitsOf(lines, dpi);
  const scan = { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, BitsPerComponent: 1 };
  paintWhole(
    page,
    'Scan',
    pdf.context.register(pdf.context.flateStream(bits, { ...scan, ColorSpace: 'DeviceGray' })),
  );
  return pdf.save();
}

/**
 * `scannedFlyer`'s page as a scanner's compact PDF writes it (mixed raster content): a coarse
 * picture of the page (a third of `dpi`, light grey paper without the print) under the print as a
 * 1-bit stencil mask at `dpi`, painted black.
 */
export async function compactScan(lines: string[], dpi: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage(A4);
  const [coarseWidth, coarseHeight] = A4.map((points) => Math.round((points * dpi) / 216)) as [
    number,
    number,
  ];
  const paper = new Uint8Array(coarseWidth * coarseHeight).fill(235);
  const background = pdf.context.flateStream(paper, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: coarseWidth,
    Height: coarseHeight,
    ColorSpace: 'DeviceGray',
    BitsPerComponent: 8,
  });
  paintWhole(page, 'Paper', pdf.context.register(background));
  const { width, height, bits } = bitsOf(lines, dpi);
  const print = { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, BitsPerComponent: 1 };
  page.pushOperators(setFillingGrayscaleColor(0));
  paintWhole(
    page,
    'Print',
    pdf.context.register(pdf.context.flateStream(bits, { ...print, ImageMask: true })),
  );
  return pdf.save();
}

/** The lines drawn on an A4 page at `dpi` as 1-bit rows (8 pixels a byte; a set bit is paper). */
function bitsOf(lines: string[], dpi: number): { width: number; height: number; bits: Uint8Array } {
  const [width, height] = A4.map((points) => Math.round((points * dpi) / 72)) as [number, number];
  const grey = drawLines(lines, Math.max(1, Math.round((1.5 * dpi) / 72)), width, height);
  const stride = Math.ceil(width / 8);
  const bits = new Uint8Array(stride * height);
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1)
      if (grey[y * width + x]! >= 128) bits[y * stride + (x >> 3)]! |= 0x80 >> (x & 7);
  return { width, height, bits };
}

/** An image XObject painted over the whole A4 page. */
function paintWhole(
  page: PDFPage,
  name: string,
  image: ReturnType<PDFDocument['context']['register']>,
): void {
  page.node.setXObject(PDFName.of(name), image);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(A4[0], 0, 0, A4[1], 0, 0),
    drawObject(name),
    popGraphicsState(),
  );
}

/** Grey pixels turned `degrees` clockwise about their centre (nearest pixel), white where uncovered. */
function turned(pixels: Uint8Array, width: number, height: number, degrees: number): Uint8Array {
  const out = new Uint8Array(width * height).fill(255);
  const [cos, sin] = [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const dx = x - width / 2;
      const dy = y - height / 2;
      const sx = Math.round(width / 2 + dx * cos + dy * sin);
      const sy = Math.round(height / 2 - dx * sin + dy * cos);
      if (sx >= 0 && sx < width && sy >= 0 && sy < height) out[y * width + x] = pixels[sy * width + sx]!;
    }
  }
  return out;
}

/** Grey pixels, `width` × `height`, white with `lines` drawn from the top left at `scale` pixels per dot. */
function drawLines(lines: string[], scale: number, width: number, height: number): Uint8Array {
  const advance = 6 * scale;
  const lineHeight = 12 * scale;
  const margin = 8 * scale;
  const pixels = new Uint8Array(width * height).fill(255);
  lines.forEach((line, row) => {
    [...line.toUpperCase()].forEach((char, col) => {
      const glyph = GLYPHS[char];
      if (!glyph) throw new Error(`no glyph for ${char}`);
      glyph.forEach((bits, gy) => {
        [...bits].forEach((bit, gx) => {
          if (bit !== '#') return;
          for (let dy = 0; dy < scale; dy += 1) {
            const y = margin + row * lineHeight + gy * scale + dy;
            const x0 = margin + col * advance + gx * scale;
            pixels.fill(0, y * width + x0, y * width + x0 + scale);
          }
        });
      });
    });
  });
  return pixels;
}

/** Polls until `check` answers a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A multipart body with the flyer in field `file` (or another field name). */
export function flyerForm(
  bytes: Uint8Array,
  options: { field?: string; filename?: string; type?: string } = {},
) {
  const form = new FormData();
  form.append(
    options.field ?? 'file',
    new Blob([bytes], { type: options.type ?? 'application/pdf' }),
    options.filename ?? 'flyer.pdf',
  );
  return form;
}

/**
 * Closes a test app whose job queue ran: pg-boss's own schema is dropped too on PostgreSQL. pg-boss
 * still polls and maintains while the schema is dropped, so PostgreSQL may pick the drop as a
 * deadlock's victim (40P01): it is tried again.
 */
export async function closeWithJobs(ctx: TestApp): Promise<void> {
  if (ctx.database.kind === 'postgres') {
    const drop = sql`drop schema if exists ${sql.id(jobSchemaFor(ctx.database))} cascade`;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await drop.execute(ctx.database.db);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
      }
    }
  }
  await ctx.close();
}

/** Fast polling and supervision for tests (production polls every 2 s, supervises every 30 s). */
export const TEST_QUEUE = {
  pollingIntervalSeconds: 0.5,
  superviseIntervalSeconds: 1,
  monitorIntervalSeconds: 1,
};

/** Inserts a promotion row directly (status live unless told), for pricing and listing tests. */
export async function insertPromotion(
  ctx: TestApp,
  storeId: string,
  promotion: {
    product: string;
    brand?: string;
    original_price: number;
    discounted_price: number;
    unit: string;
    valid_until: string;
    status?: 'candidate' | 'live' | 'rejected';
  },
): Promise<string> {
  const result = await sql<{ id: string }>`
    insert into promotions (store_id, product, brand, original_price, discounted_price, unit, valid_until, page, confidence, status)
    values (${storeId}, ${promotion.product}, ${promotion.brand ?? ''}, ${promotion.original_price},
            ${promotion.discounted_price}, ${promotion.unit}, ${promotion.valid_until}, 1, 1, ${promotion.status ?? 'live'})
    returning id`.execute(ctx.database.db);
  return result.rows[0]!.id;
}

/**
 * A copy of the database handle whose raw channel (PGlite or the pool) can be cut: after sever(),
 * every query through it fails, as for a process that died or lost its connection.
 */
export function severableDatabase(database: DatabaseHandle): { handle: DatabaseHandle; sever(): void } {
  let severed = false;
  const guard = <T extends object>(target: T, methods: string[]): T =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        if (!methods.includes(String(property))) return (value as (...a: unknown[]) => unknown).bind(object);
        return (...args: unknown[]) =>
          severed
            ? Promise.reject(new Error('connection lost'))
            : (value as (...a: unknown[]) => unknown).apply(object, args);
      },
    });
  const handle: DatabaseHandle = {
    ...database,
    ...(database.pglite ? { pglite: guard(database.pglite, ['query', 'exec']) } : {}),
    ...(database.pool ? { pool: guard(database.pool, ['query']) } : {}),
  };
  return { handle, sever: () => (severed = true) };
}
