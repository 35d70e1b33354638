import type {
  ImageRegion,
  LevelledPicture,
  OcrDocument,
  OcrEngine,
  OcrEngineOptions,
  OcrWord,
  PriceGlyphs,
} from './ocr.ts';

/**
 * The OCR engine (tesseract.js and the native canvas) loaded at its first use: every process
 * composes a flyer reader, but only the workers read flyers, and an API instance that never does
 * would otherwise carry both (~30 MB resident, ~0.3 s of start-up).
 */
export class LazyOcrEngine implements OcrEngine {
  #engine: Promise<Required<OcrEngine>> | undefined;
  readonly #options: OcrEngineOptions;

  constructor(options: OcrEngineOptions = {}) {
    this.#options = options;
  }

  async recognize(image: Buffer, document?: OcrDocument): Promise<OcrWord[]> {
    return (await this.#loaded()).recognize(image, document);
  }

  async readPrices(image: Buffer, regions: readonly ImageRegion[]): Promise<Array<PriceGlyphs | undefined>> {
    return (await this.#loaded()).readPrices(image, regions);
  }

  async levelled(image: Buffer): Promise<LevelledPicture> {
    return (await this.#loaded()).levelled(image);
  }

  async evenlyLit(image: Buffer): Promise<Buffer> {
    return (await this.#loaded()).evenlyLit(image);
  }

  async upright(image: Buffer): Promise<Buffer | undefined> {
    return (await this.#loaded()).upright(image);
  }

  async findTallGlyphRuns(image: Buffer, minHeight: number): Promise<ImageRegion[]> {
    return (await this.#loaded()).findTallGlyphRuns(image, minHeight);
  }

  async warmUp(): Promise<void> {
    await (await this.#loaded()).warmUp();
  }

  async close(): Promise<void> {
    const engine = this.#engine;
    this.#engine = undefined;
    if (engine) await (await engine).close();
  }

  #loaded(): Promise<Required<OcrEngine>> {
    this.#engine ??= import('./tesseract-engine.ts').then(
      ({ TesseractEngine }) => new TesseractEngine(this.#options),
    );
    return this.#engine;
  }
}
