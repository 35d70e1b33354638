import { createCanvas, loadImage, type Canvas } from '@napi-rs/canvas';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  PDFName,
  popGraphicsState,
  pushGraphicsState,
  type PDFPage,
} from 'pdf-lib';
import { UnpdfReader } from '../../src/providers/pdf/unpdf-reader.ts';
import type { FlyerLabels } from './scoring.ts';

export interface RasterisedFlyer {
  pdf: Uint8Array;
  labels: FlyerLabels & Record<string, unknown>;
}

/** A page with at least this many letters in its text layer has one (the reader's own bar is 12). */
const TEXT_LETTERS = 12;

/**
 * The flyer with every page drawn to a JPEG at `dpi` and placed alone on a page of the same size:
 * what a shop's image export or a scan gives (`degrees`: turned clockwise that far about its
 * centre, white where uncovered, as a page laid crooked on a scanner; `bilevel`: a 1-bit picture,
 * as a scanner or copier in black and white writes it, ink where the page is darker than mid-grey,
 * in place of the JPEG; `quarterTurns`: the page turned that many quarters clockwise, as a flyer fed
 * to a scanner sideways or upside down; `shade`: light falling off across the page, its far corner
 * that much darker, as a flyer photographed under a lamp or scanned with the lid up). Invisible OCR text is not drawn, so a flyer whose text layer lies over page images becomes those images. `undefined` when
 * no page has text.
 */
export async function rasteriseFlyer(
  bytes: Uint8Array,
  labels: FlyerLabels & Record<string, unknown>,
  options: {
    dpi: number;
    quality: number;
    degrees?: number;
    bilevel?: boolean;
    quarterTurns?: number;
    shade?: number;
  },
): Promise<RasterisedFlyer | undefined> {
  const source = await new UnpdfReader().open(bytes);
  try {
    const pdf = await PDFDocument.create();
    let textPages = 0;
    for (let n = 1; n <= source.pageCount; n += 1) {
      const page = await source.page(n);
      const letters = page.items.reduce((sum, i) => sum + (i.text.match(/\p{L}/gu) ?? []).length, 0);
      if (letters >= TEXT_LETTERS) textPages += 1;
      const drawn = await source.render(n, options.dpi / 72);
      const picture = await loadImage(drawn.png);
      const canvas = createCanvas(drawn.width, drawn.height);
      const context = canvas.getContext('2d');
      // A PDF page without a background is transparent where nothing is drawn: paper is white.
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, drawn.width, drawn.height);
      const turn = ((options.degrees ?? 0) * Math.PI) / 180;
      context.translate(drawn.width / 2, drawn.height / 2);
      context.rotate(turn);
      context.translate(-drawn.width / 2, -drawn.height / 2);
      context.drawImage(picture, 0, 0);
      context.setTransform(1, 0, 0, 1, 0, 0);
      if (options.shade) shaded(canvas, options.shade);
      const turns = (options.quarterTurns ?? 0) % 4;
      const sheet = turns % 2 === 0 ? [page.width, page.height] : [page.height, page.width];
      const scan = turns === 0 ? canvas : quarterTurned(canvas, turns);
      const out = pdf.addPage(sheet as [number, number]);
      if (options.bilevel) {
        const rgba = scan.getContext('2d').getImageData(0, 0, scan.width, scan.height).data;
        paintBilevel(pdf, out, scan.width, scan.height, rgba);
        continue;
      }
      const jpeg = await scan.encode('jpeg', options.quality);
      const image = await pdf.embedJpg(jpeg);
      out.drawImage(image, { x: 0, y: 0, width: sheet[0]!, height: sheet[1]! });
    }
    if (textPages === 0) return undefined;
    return {
      pdf: await pdf.save(),
      labels: {
        ...labels,
        kind: 'image-only',
        rasterised: {
          from: labels.file,
          dpi: options.dpi,
          jpeg_quality: options.quality,
          ...(options.degrees ? { degrees: options.degrees } : {}),
          ...(options.bilevel ? { bilevel: true } : {}),
          ...(options.quarterTurns ? { quarter_turns: options.quarterTurns } : {}),
          ...(options.shade ? { shade: options.shade } : {}),
        },
        notes: `Rasterised by bench/flyers/rasterise.ts from ${labels.file} (${options.dpi} dpi ${options.bilevel ? '1-bit' : 'JPEG'} pages${options.degrees ? `, laid ${options.degrees}° crooked` : ''}, no text layer).${labels['notes'] ? ` Original notes: ${String(labels['notes'])}` : ''}`,
      },
    };
  } finally {
    await source.close();
  }
}

/** The page's pixels as a 1-bit image over the whole page (8 pixels a byte; a set bit is paper). */
function paintBilevel(
  pdf: PDFDocument,
  page: PDFPage,
  width: number,
  height: number,
  rgba: Uint8ClampedArray,
) {
  const stride = Math.ceil(width / 8);
  const bits = new Uint8Array(stride * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 4;
      const luminance = 0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!;
      if (luminance >= 128) bits[y * stride + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const scan = pdf.context.flateStream(bits, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: width,
    Height: height,
    ColorSpace: 'DeviceGray',
    BitsPerComponent: 1,
  });
  page.node.setXObject(PDFName.of('Scan'), pdf.context.register(scan));
  const { width: pageWidth, height: pageHeight } = page.getSize();
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(pageWidth, 0, 0, pageHeight, 0, 0),
    drawObject('Scan'),
    popGraphicsState(),
  );
}

/**
 * The page lit unevenly: full light at its top-left corner, falling off to `shade` (0-1) darker at
 * the bottom-right, a little faster near that corner (as a lamp's light falls off).
 */
function shaded(canvas: Canvas, shade: number): void {
  const g = canvas.getContext('2d');
  const light = g.createRadialGradient(0, 0, 0, 0, 0, Math.hypot(canvas.width, canvas.height));
  const grey = (darker: number) => {
    const level = Math.round(255 * (1 - darker));
    return `rgb(${level},${level},${level})`;
  };
  light.addColorStop(0, grey(0));
  light.addColorStop(0.5, grey(shade * 0.35));
  light.addColorStop(1, grey(shade));
  g.globalCompositeOperation = 'multiply';
  g.fillStyle = light;
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.globalCompositeOperation = 'source-over';
}

/** The canvas turned `turns` quarters clockwise (a quarter turn swaps its sides). */
function quarterTurned(canvas: Canvas, turns: number): Canvas {
  const [width, height] = turns % 2 === 0 ? [canvas.width, canvas.height] : [canvas.height, canvas.width];
  const turned = createCanvas(width, height);
  const g = turned.getContext('2d');
  g.translate(width / 2, height / 2);
  g.rotate((turns * Math.PI) / 2);
  g.drawImage(canvas, -canvas.width / 2, -canvas.height / 2);
  return turned;
}
