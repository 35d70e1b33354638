/** A word the OCR engine read, with its box in image pixels and a confidence in 0..1. */
export interface OcrWord {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  confidence: number;
  /** Read by a model that reads display prices as printed (not read again digit by digit). */
  settled?: boolean;
}

/** An area of an image, in its pixels. */
export interface ImageRegion {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A big price read on its own: the tall digits, and the small raised ones after them (cents, or
 * "¢"), with where its ink ends. Empty strings when a part shows no digit.
 */
export interface PriceGlyphs {
  whole: string;
  raised: string;
  /** x (image pixels) of the last inked column of the price. */
  right: number;
  /** y (image pixels) below the last row read, when the reader took the region further down to its digits' foot. */
  bottom?: number;
  /** The digit reader's confidence in 0..1 (the lower of the two parts). */
  confidence: number;
}

/**
 * A picture to read in place of a scan whose lines of type lie crooked: turned level when they lie
 * far off, and `slope`, how far down (image pixels) the lines left in it go a pixel to the right. A
 * word's height on the level page is its box's, less `slope` times its centre's distance right of
 * the picture's middle.
 */
export interface LevelledPicture {
  png: Buffer;
  slope: number;
}

/**
 * What the pages of one document have in common, noted by the engine as it reads them: the
 * language it found on a page is read directly on the next ones.
 */
export interface OcrDocument {
  language?: string;
  /** Set once a page was read in Arabic script: the next ones are read in it first. */
  script?: 'arabic';
}

export interface OcrEngineOptions {
  /**
   * Words of a language whose accents OCR's readings in it are given back from before its dictionary
   * is asked (the ingredient reference's food names); called when a page is first in that language
   * (`pt`, `es` or `fr`: the languages whose dictionaries ship), and in them and English the foods
   * a misread word is mended toward; in German and Italian, which have no dictionary here (theirs
   * are GPL-only), the only words OCR's are checked against; in Arabic and Persian, the foods OCR's
   * words are spelt as when they are one or a misread dot away from one.
   */
  preferredSpellings?: (language: 'en' | 'pt' | 'es' | 'fr' | 'de' | 'it' | 'ar' | 'fa') => Iterable<string>;
}

export interface OcrEngine {
  /** Reads an encoded image (PNG or JPEG bytes), one page of `document` when given. */
  recognize(image: Buffer, document?: OcrDocument): Promise<OcrWord[]>;
  /**
   * Re-reads regions that hold one big price each, as digits only: the tall part and the raised
   * part apart (whole-page OCR garbles raised cents into "2%", "4”", "0°"). One result per region.
   */
  readPrices?(image: Buffer, regions: readonly ImageRegion[]): Promise<Array<PriceGlyphs | undefined>>;
  /**
   * The picture to read for a scan whose lines of type may lie crooked, and the slope its words'
   * places are levelled by (see `LevelledPicture`); the same buffer and slope 0 when they lie level.
   */
  levelled?(image: Buffer): Promise<LevelledPicture>;
  /**
   * The picture with its light made even when it falls off across the page (photographed under a
   * lamp, scanned with the lid up); the same buffer when it is evenly lit.
   */
  evenlyLit?(image: Buffer): Promise<Buffer>;
  /**
   * The picture turned upright when its type stands sideways or upside down (a page scanned so, a
   * landscape spread on a portrait page), by the page's script's orientation; undefined when it
   * stands upright or that is unsure.
   */
  upright?(image: Buffer): Promise<Buffer | undefined>;
  /** Runs of glyphs at least `minHeight` tall on one baseline, found from the ink (big prices). */
  findTallGlyphRuns?(image: Buffer, minHeight: number): Promise<ImageRegion[]>;
  /**
   * Loads what every page needs (models, workers, spelling dictionaries) before the first page, so
   * that a worker's first flyer does not wait for it; a page's language model still loads when
   * first met.
   */
  warmUp?(): Promise<void>;
  close(): Promise<void>;
}
