import type { OcrDocument, OcrEngine } from '../../../providers/ocr/ocr.ts';
import { confidentLetters, readsPoorly } from '../../../providers/ocr/letters.ts';
import { compressedPng, encodePng } from '../../../providers/ocr/png.ts';
import { withMisreadCurrencies } from './arabic-currency.ts';
import { rereadBigPrices } from './price-glyphs.ts';
import {
  fixOcrWords,
  harmoniseArabicScript,
  joinRaisedCents,
  joinSplitDigits,
  splitGluedCents,
} from './raised-cents.ts';
import type { PdfDocument, PdfPage, PdfReader, RasterImage } from '../../../providers/pdf/pdf.ts';
import { largestItems, parseLayout, type LayoutItem, type ParsedOffer } from './layout.ts';
import { defaultValidUntil, findValidUntil } from './validity.ts';

export interface ExtractedOffer extends ParsedOffer {
  validUntil: string;
}

/** Reads one page's offers as text: the PDF text layer, or OCR of the page's embedded images. */
export interface PageOffersSource {
  offers(page: PdfPage, document: PdfDocument, pageText: string): Promise<ParsedOffer[]>;
}

/** Reads the offers of an image-only page from its pictures (a vision-capable model). */
export interface ImagePageOffersSource {
  offers(pageNumber: number, pngs: Buffer[]): Promise<ParsedOffer[]>;
}

/** One open flyer: its pages are extracted one at a time so that progress can be recorded. */
export interface FlyerRun {
  pageCount: number;
  extractPage(number: number): Promise<ExtractedOffer[]>;
  close(): Promise<void>;
}

/** Opens flyers for extraction (FlyerReader; tests wrap it). */
export interface FlyerSource {
  open(bytes: Uint8Array, uploadedAt: Date): Promise<FlyerRun>;
}

/**
 * Told each page's items as the layout parser is given them (after OCR and its repairs): the bench
 * records them to score layout rules again in seconds, without OCR (`npm run flyers:relayout`).
 */
export type LayoutInputObserver = (pageNumber: number, items: readonly LayoutItem[]) => void;

/** A page with fewer letters than this in its text layer is treated as an image (scanned) page. */
const MIN_TEXT_LETTERS = 12;

/**
 * Turns flyer PDFs into offers. Each page goes through the optional structured reader first (the
 * LLM, when configured) and falls back to the layout parser when that fails or finds nothing. An
 * image-only page goes to the vision model when one is configured, else (or when it fails or finds
 * nothing) through OCR into the same path as a text page. A text page whose text yields no offer
 * but which shows pictures is read from its pictures the same way.
 * The validity printed once in a header applies to every page; without one, a week from upload.
 */
export class FlyerReader implements FlyerSource {
  readonly #pdf: PdfReader;
  readonly #ocr: OcrEngine | undefined;
  readonly #structured: PageOffersSource | undefined;
  readonly #vision: ImagePageOffersSource | undefined;
  readonly #observeLayoutInput: LayoutInputObserver | undefined;

  constructor(
    pdf: PdfReader,
    ocr: OcrEngine | undefined,
    structured?: PageOffersSource,
    vision?: ImagePageOffersSource,
    observeLayoutInput?: LayoutInputObserver,
  ) {
    this.#pdf = pdf;
    this.#ocr = ocr;
    this.#structured = structured;
    this.#vision = vision;
    this.#observeLayoutInput = observeLayoutInput;
  }

  /** OCR's models loaded now rather than by the first image page (see `OcrEngine.warmUp`). */
  async warmUp(): Promise<void> {
    await this.#ocr?.warmUp?.();
  }

  async open(bytes: Uint8Array, uploadedAt: Date): Promise<FlyerRun> {
    const document = await this.#pdf.open(bytes);
    let printedValidity: string | undefined;
    for (let n = 1; n <= document.pageCount && !printedValidity; n += 1) {
      const page = await document.page(n);
      printedValidity = findValidUntil(page.items.map((i) => i.text).join(' '), uploadedAt);
    }
    // The language OCR finds on one page is read directly on the next.
    const ocrDocument: OcrDocument = {};
    const extractPage = async (number: number): Promise<ExtractedOffer[]> => {
      const page = await document.page(number);
      const imagePage = isImagePage(page);
      const seen = imagePage ? await this.#visionOffers(page, document) : [];
      if (seen.length > 0) {
        const validUntil = printedValidity ?? defaultValidUntil(uploadedAt);
        return seen.map((offer) => ({ ...offer, validUntil: offer.validUntil ?? validUntil }));
      }
      const items = splitGluedCents(
        imagePage ? await this.#ocrItems(page, document, ocrDocument) : largestItems(page.items),
      );
      const text = items.map((i) => i.text).join(' ');
      printedValidity ??= findValidUntil(text, uploadedAt);
      const validUntil = printedValidity ?? defaultValidUntil(uploadedAt);
      let offers = await this.#offersOf(page, document, items, text);
      if (offers.length === 0 && !imagePage && (await hasPictures(page, document))) {
        offers = await this.#offersInPictures(page, document, ocrDocument);
      }
      // A date printed for one offer wins over the flyer's.
      return offers.map((offer) => ({ ...offer, validUntil: offer.validUntil ?? validUntil }));
    };
    return { pageCount: document.pageCount, extractPage, close: () => document.close() };
  }

  async #offersOf(page: PdfPage, document: PdfDocument, items: LayoutItem[], text: string) {
    if (this.#structured && text.trim()) {
      try {
        const offers = await this.#structured.offers(page, document, text);
        if (offers.length > 0) return offers;
      } catch {
        // The structured reader is an improvement, not a dependency: the parser still answers.
      }
    }
    this.#observeLayoutInput?.(page.number, items);
    return parseLayout(items);
  }

  /**
   * A text page whose text holds no offer but which shows pictures has its offers in them (cards
   * made in Canva: the text layer holds only headings): the vision model sees the pictures, or the
   * page is drawn and read by OCR, text layer and pictures together, in place.
   */
  async #offersInPictures(
    page: PdfPage,
    document: PdfDocument,
    ocrDocument: OcrDocument,
  ): Promise<ParsedOffer[]> {
    const seen = await this.#visionOffers(page, document);
    if (seen.length > 0) return seen;
    const items = splitGluedCents(await this.#ocrItems(page, document, ocrDocument, 'drawn'));
    return this.#offersOf(page, document, items, items.map((i) => i.text).join(' '));
  }

  async #visionOffers(page: PdfPage, document: PdfDocument): Promise<ParsedOffer[]> {
    if (!this.#vision) return [];
    const images = await pictures(page, document);
    if (images.length === 0) return [];
    try {
      // The pictures are stored PNGs, made to be passed within the process: compressed to be sent.
      return await this.#vision.offers(
        page.number,
        images.map((i) => compressedPng(i.png)),
      );
    } catch {
      return []; // OCR still reads the page
    }
  }

  /**
   * OCR of the page's embedded raster images (`drawn`: of the whole page drawn to pixels), mapped
   * into page coordinates.
   */
  async #ocrItems(
    page: PdfPage,
    document: PdfDocument,
    ocrDocument: OcrDocument,
    source: 'pictures' | 'drawn' = 'pictures',
  ): Promise<LayoutItem[]> {
    if (!this.#ocr) return [];
    const images = source === 'drawn' ? await drawnPage(page, document) : await pictures(page, document);
    const items: LayoutItem[] = [];
    for (const image of images) {
      const { words, slope, width } = await this.#readUpright(image.png, ocrDocument);
      // The image is assumed to span the page's width (a scanned page); its words keep their layout,
      // a pixel the same size however the picture was turned.
      const scale = page.width / image.width;
      for (const word of words) {
        const rise = (word.x + word.width / 2 - width / 2) * slope;
        items.push({
          text: word.text,
          x: word.x * scale,
          y: (word.y - rise) * scale,
          width: word.width * scale,
          height: word.height * scale,
          confidence: word.confidence,
        });
      }
    }
    // The repairs below compare words pairwise: a hostile image's thousands of words are cut first.
    return withMisreadCurrencies(
      harmoniseArabicScript(joinRaisedCents(joinSplitDigits(fixOcrWords(largestItems(items))))),
    );
  }

  /**
   * A picture's words, read evenly lit and level (a page scanned crooked is turned level, or its words' places are
   * levelled by `slope`: `LevelledPicture`), and read again turned upright when its reading is poor
   * and its type stands sideways or upside down; the turned reading stands when it reads more. What
   * the poor reading told of the document's language is forgotten. `width`: of the picture read.
   */
  async #readUpright(picture: Buffer, document: OcrDocument) {
    const ocr = this.#ocr!;
    const known = { ...document };
    const first = await this.#readLevel(picture, document);
    if (!ocr.upright || !readsPoorly(first.words)) return first;
    const turned = await ocr.upright(picture);
    if (!turned) return first;
    const noted = { ...document };
    restore(document, known);
    const upright = await this.#readLevel(turned, document);
    if (confidentLetters(upright.words) > confidentLetters(first.words)) return upright;
    restore(document, noted);
    return first;
  }

  async #readLevel(picture: Buffer, document: OcrDocument) {
    const ocr = this.#ocr!;
    // Evenly lit first: the skew is found from the ink, cut from the paper by one grey level.
    const lit = (await ocr.evenlyLit?.(picture)) ?? picture;
    const { png, slope } = (await ocr.levelled?.(lit)) ?? { png: lit, slope: 0 };
    const read = await ocr.recognize(png, document);
    // PNG's IHDR: the width is the big-endian word at byte 16 (the picture may come as a plain Uint8Array).
    const width = new DataView(png.buffer, png.byteOffset, png.byteLength).getUint32(16);
    return { words: await rereadBigPrices(ocr, png, read), slope, width };
  }
}

function restore(document: OcrDocument, state: OcrDocument): void {
  for (const key of Object.keys(document) as Array<keyof OcrDocument>) delete document[key];
  Object.assign(document, state);
}

interface PagePicture {
  png: Buffer;
  width: number;
}

/** Pixels per PDF point when a page is drawn: ~216 dpi, enough for OCR of flyer print. */
const RENDER_SCALE = 3;

/**
 * Pixels per PDF point an image page is read at: 150 dpi, what flyer sites export and what the
 * reader is measured on. Finer pictures are scaled down: read as they were, 300-dpi scans took 1.2–5
 * times as long a page (volantino 35 s) and read no more offers. Coarser scans of a printed page
 * are scaled up: at 100 dpi a dense page's small print is a few pixels tall (savegnago 75 → 24
 * offers read at 100 dpi, 51 scaled up).
 */
const PICTURE_SCALE = 150 / 72;
/** A scan within this factor of that is read as it is (scaling would cost more than it gives). */
const SCAN_SCALE_TOLERANCE = 1.1;
/**
 * A page at most this long (points: tabloid, A3) is a printed one, its picture's pixels a point its
 * resolution. A longer page is a screen's picture set a pixel a point (a phone story of 1080 × 1920),
 * whose type is as many pixels tall as it was drawn: not scaled up.
 */
const PRINTED_PAGE_LONG_SIDE = 1224;

/** A page's one picture is a scan of it when their shapes agree this closely (width over height). */
const SCAN_SHAPE_TOLERANCE = 0.03;

/**
 * What a page without a text layer shows: its one embedded raster image when that is the page (a
 * scan: one picture of the page's shape), else the page itself drawn to pixels: several pictures
 * (a design tool's offer cards, each of which would be read as if it were the whole page), one
 * placed on part of the page or turned, or none (text as vector outlines).
 */
async function pictures(page: PdfPage, document: PdfDocument): Promise<PagePicture[]> {
  const embedded = (await document.images(page.number)).filter((i) => i.width >= 64 && i.height >= 32);
  const [only] = embedded;
  if (embedded.length === 1 && isScanOf(only!, page)) return [await scanPicture(only!, page)];
  // Drawn near the pictures' own resolution, up to an image page's: as for a vector page, or as a card page is.
  const largest = Math.max(0, ...embedded.map((i) => i.width * i.height));
  const native = Math.sqrt(largest / Math.max(1, page.width * page.height));
  const scale =
    embedded.length === 0 ? RENDER_SCALE : Math.min(PICTURE_SCALE, Math.max(CARD_RENDER_SCALE, native));
  try {
    const drawn = await document.render(page.number, scale);
    return [{ png: drawn.png, width: drawn.width }];
  } catch {
    return []; // a page pdf.js cannot draw yields no offers rather than failing the flyer
  }
}

/**
 * A scan as the page's picture, at an image page's resolution: scaled down when it is finer, and
 * up when it is coarser and the page a printed one.
 */
async function scanPicture(scan: RasterImage, page: PdfPage): Promise<PagePicture> {
  const width = Math.max(1, Math.round(page.width * PICTURE_SCALE));
  const finer = scan.width > width * SCAN_SCALE_TOLERANCE;
  const coarser =
    scan.width * SCAN_SCALE_TOLERANCE < width && Math.max(page.width, page.height) <= PRINTED_PAGE_LONG_SIDE;
  if (!finer && !coarser) return { png: toPng(scan), width: scan.width };
  // Loaded when first needed: an API instance never loads the native canvas (its footprint test).
  const { scaledPng } = await import('../../../providers/ocr/picture.ts');
  return { png: scaledPng(scan, width), width };
}

function isScanOf(image: RasterImage, page: PdfPage): boolean {
  const shape = image.width / image.height;
  const pageShape = page.width / Math.max(1, page.height);
  return Math.abs(shape - pageShape) <= pageShape * SCAN_SHAPE_TOLERANCE;
}

/** Pictures placed on a text page are drawn at this scale: cards' type is small. */
const CARD_RENDER_SCALE = 2;

/** The whole page drawn to pixels: pictures and text in place (a card's position is not known otherwise). */
async function drawnPage(page: PdfPage, document: PdfDocument): Promise<PagePicture[]> {
  try {
    const drawn = await document.render(page.number, CARD_RENDER_SCALE);
    return [{ png: drawn.png, width: drawn.width }];
  } catch {
    return []; // as for image pages: a page pdf.js cannot draw yields no offers
  }
}

async function hasPictures(page: PdfPage, document: PdfDocument): Promise<boolean> {
  return (await document.images(page.number)).some((i) => i.width >= 64 && i.height >= 32);
}

function isImagePage(page: PdfPage): boolean {
  const letters = page.items.reduce((n, i) => n + (i.text.match(/\p{L}/gu) ?? []).length, 0);
  return letters < MIN_TEXT_LETTERS;
}

function toPng(image: RasterImage): Buffer {
  return encodePng(image.width, image.height, image.channels, image.data);
}
