import { createRequire } from 'node:module';
import path from 'node:path';
import { definePDFJSModule, getDocumentProxy, getResolvedPDFJS, renderPageAsImage } from 'unpdf';
import {
  InvalidPdfError,
  type PdfDocument,
  type PdfPage,
  type PdfReader,
  type PdfTextItem,
  type RasterImage,
  type RenderedPage,
} from './pdf.ts';
import type * as NapiCanvas from '@napi-rs/canvas';
import { pngOf } from '../ocr/png.ts';

type DocumentProxy = Awaited<ReturnType<typeof getDocumentProxy>>;
type CanvasModule = typeof NapiCanvas;

const require = createRequire(import.meta.url);
/** pdf.js's image decoders compiled to WebAssembly (JPEG 2000, JBIG2, CCITT fax), shipped in pdfjs-dist. */
const WASM_DIR = `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'wasm')}/`;

let officialPdfjs: Promise<void> | undefined;

/**
 * unpdf's own pdf.js build has its WebAssembly decoders cut out: a page image in JPEG 2000 (what
 * scanners and PDF optimisers write; the real Italian flyer's pages) or JBIG2 was skipped with a
 * warning and the page read as empty. pdfjs-dist's build of the same version loads them from
 * `WASM_DIR`; unpdf's helpers run on it.
 */
function withOfficialPdfjs(): Promise<void> {
  officialPdfjs ??= definePDFJSModule(() => import('pdfjs-dist/legacy/build/pdf.mjs'));
  return officialPdfjs;
}

/**
 * pdf.js (through unpdf): text items with positions per page, embedded images decoded.
 * `maxImagePixels` bounds what is ever decoded or drawn: pdf.js skips larger images before
 * decoding them, and a page is drawn at a smaller scale when it would exceed it.
 */
export class UnpdfReader implements PdfReader {
  readonly #maxImagePixels: number;

  readonly #verbosity: number;

  /** `verbosity` 1 lets pdf.js report warnings (the isolated worker listens for skipped images). */
  constructor(options: { maxImagePixels?: number; verbosity?: number } = {}) {
    this.#maxImagePixels = options.maxImagePixels ?? 50_000_000;
    this.#verbosity = options.verbosity ?? 0;
  }

  async open(bytes: Uint8Array): Promise<PdfDocument> {
    let proxy: DocumentProxy;
    await withOfficialPdfjs();
    try {
      // pdf.js takes ownership of the buffer it is given: hand it a copy.
      proxy = await getDocumentProxy(new Uint8Array(bytes), {
        verbosity: this.#verbosity,
        maxImageSize: this.#maxImagePixels,
        wasmUrl: WASM_DIR,
      });
    } catch (error) {
      throw new InvalidPdfError(`not a readable PDF: ${(error as Error).message}`);
    }
    const maxPixels = this.#maxImagePixels;
    return {
      pageCount: proxy.numPages,
      page: (number) => readPage(proxy, number),
      images: (number) => readImages(proxy, number, maxPixels),
      render: (number, scale) => renderPage(proxy, number, scale, maxPixels),
      close: () => proxy.loadingTask.destroy(),
    };
  }
}

async function readPage(proxy: DocumentProxy, number: number): Promise<PdfPage> {
  const page = await proxy.getPage(number);
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const items: PdfTextItem[] = [];
  for (const item of content.items) {
    if (!('str' in item) || !item.str.trim()) continue;
    const [a, b, , , e, f] = item.transform as number[];
    const size = Math.hypot(a ?? 0, b ?? 0) || item.height;
    const height = item.height || size;
    // PDF space has its origin at the bottom-left; the parser reads top-down.
    items.push({
      text: item.str.replace(/\s+/g, ' ').trim(),
      x: e ?? 0,
      y: viewport.height - (f ?? 0) - height,
      width: item.width,
      height,
    });
  }
  page.cleanup();
  return { number, width: viewport.width, height: viewport.height, items };
}

/**
 * The page's raster images as pdf.js decodes them, in the order they are painted. A 1-bit image (a
 * black-and-white scan: CCITT fax or JBIG2, what office scanners and copiers write) comes packed
 * eight pixels a byte; it is unpacked to grey, else the page looked as if it held no picture. So is
 * a stencil mask (its ink black): a scanner's compact PDF paints its text as masks over a coarse
 * picture of the page, which alone looked like the whole scan.
 */
async function readImages(proxy: DocumentProxy, number: number, maxPixels: number): Promise<RasterImage[]> {
  const { OPS, ImageKind } = await getResolvedPDFJS();
  const page = await proxy.getPage(number);
  const operators = await page.getOperatorList();
  const images: RasterImage[] = [];
  // Unpacking makes eight times the bytes: a page's 1-bit images are unpacked within one image's
  // budget in all (forty masks of 5000 × 5000 took a gigabyte); past it they are passed over.
  let unpackable = maxPixels;
  for (let i = 0; i < operators.fnArray.length; i += 1) {
    const fn = operators.fnArray[i];
    if (fn !== OPS.paintImageXObject && fn !== OPS.paintImageMaskXObject) continue;
    const mask = fn === OPS.paintImageMaskXObject;
    const [painted] = operators.argsArray[i] as [unknown];
    // An image's key, or a mask's ({data: key}); anything else (a mask's pixels inline) is passed over.
    const key = typeof painted === 'string' ? painted : (painted as { data?: unknown } | undefined)?.data;
    if (typeof key !== 'string') continue;
    const objects = key.startsWith('g_') ? page.commonObjs : page.objs;
    const image = (await new Promise((resolve) => objects.get(key, resolve))) as DecodedImage | undefined;
    if (!image?.data || !image.width || !image.height || image.width * image.height > maxPixels) continue;
    if (mask || image.kind === ImageKind.GRAYSCALE_1BPP) {
      unpackable -= image.width * image.height;
      if (unpackable >= 0) images.push(unpackedBits(image.width, image.height, image.data));
      continue;
    }
    const channels = image.data.length / (image.width * image.height);
    if (channels === 1 || channels === 3 || channels === 4)
      images.push({ width: image.width, height: image.height, channels, data: image.data });
  }
  return images;
}

interface DecodedImage {
  width: number;
  height: number;
  kind?: number;
  data?: Uint8ClampedArray;
}

/**
 * A 1-bit image or stencil mask (rows padded to whole bytes; a set bit is white, or unpainted, as
 * pdf.js draws them) as 8-bit grey.
 */
function unpackedBits(width: number, height: number, data: Uint8ClampedArray): RasterImage {
  const grey = new Uint8ClampedArray(width * height);
  const stride = Math.ceil(width / 8);
  for (let y = 0; y < height; y += 1) {
    const row = y * stride;
    for (let x = 0; x < width; x += 1) {
      const byte = data[row + (x >> 3)] ?? 0xff;
      grey[y * width + x] = (byte >> (7 - (x & 7))) & 1 ? 255 : 0;
    }
  }
  return { width, height, channels: 1, data: grey };
}

/** pdf.js drawing on @napi-rs/canvas (prebuilt, no system libraries), within the pixel budget. */
async function renderPage(
  proxy: DocumentProxy,
  number: number,
  scale: number,
  maxPixels: number,
): Promise<RenderedPage> {
  const viewport = (await proxy.getPage(number)).getViewport({ scale: 1 });
  const area = viewport.width * viewport.height;
  const bounded = Math.min(scale, Math.sqrt(maxPixels / Math.max(1, area)));
  const png = Buffer.from(
    await renderPageAsImage(proxy, number, {
      canvasImport: canvasWithFastPng,
      scale: bounded,
    }),
  );
  // PNG IHDR: width and height are the big-endian words at bytes 16 and 20.
  return { png, width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * @napi-rs/canvas, its canvases encoding PNG with our fastest-compression writer: unpdf encodes the
 * drawn page with the canvas's own, ~0.2 s of a flyer page's ~0.6 s of drawing.
 */
async function canvasWithFastPng(): Promise<CanvasModule> {
  const canvas: CanvasModule = await import('@napi-rs/canvas');
  const createCanvas = (width: number, height: number) => {
    const drawn = canvas.createCanvas(width, height);
    drawn.encode = (() => Promise.resolve(pngOf(drawn))) as typeof drawn.encode;
    return drawn;
  };
  // unpdf takes a module's `default` when it has one: the canvas's own, which this replaces.
  return { ...canvas.default, createCanvas, default: undefined } as unknown as CanvasModule;
}
