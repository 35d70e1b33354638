import { createRequire } from 'node:module';
import { createWorker, PSM, type Worker } from 'tesseract.js';
import type { ImageRegion, OcrEngine, OcrWord, PriceGlyphs } from './ocr.ts';
import { findTallGlyphRuns } from './glyph-runs.ts';
import { readPriceGlyphs } from './price-glyphs.ts';

const require = createRequire(import.meta.url);

/** The English traineddata shipped in the npm package: no network at run time. */
function englishDataPath(): string {
  return (require('@tesseract.js-data/eng') as { langPath: string }).langPath;
}

/**
 * tesseract.js (WASM) with one lazily created worker, reused across pages; recognitions run one
 * at a time through it.
 */
export class TesseractEngine implements OcrEngine {
  #worker: Promise<Worker> | undefined;
  /** A second worker for digits only (its parameters would otherwise leak into page reading). */
  #digits: Promise<Worker> | undefined;

  async recognize(image: Buffer): Promise<OcrWord[]> {
    const worker = await this.#ensureWorker();
    const result = await worker.recognize(image, {}, { blocks: true, text: false });
    const words: OcrWord[] = [];
    for (const block of result.data.blocks ?? []) {
      for (const paragraph of block.paragraphs) {
        for (const line of paragraph.lines) {
          for (const word of line.words) {
            if (!word.text.trim()) continue;
            words.push({
              text: word.text.trim(),
              x: word.bbox.x0,
              y: word.bbox.y0,
              width: word.bbox.x1 - word.bbox.x0,
              height: word.bbox.y1 - word.bbox.y0,
              confidence: word.confidence / 100,
            });
          }
        }
      }
    }
    return words;
  }

  async readPrices(image: Buffer, regions: readonly ImageRegion[]): Promise<Array<PriceGlyphs | undefined>> {
    if (regions.length === 0) return [];
    return readPriceGlyphs(await this.#ensureDigitsWorker(), image, regions);
  }

  findTallGlyphRuns(image: Buffer, minHeight: number): Promise<ImageRegion[]> {
    return findTallGlyphRuns(image, minHeight);
  }

  async close(): Promise<void> {
    const workers = [this.#worker, this.#digits];
    this.#worker = undefined;
    this.#digits = undefined;
    for (const worker of workers) if (worker) await (await worker).terminate();
  }

  #ensureDigitsWorker(): Promise<Worker> {
    this.#digits ??= this.#createWorker().then(async (worker) => {
      await worker.setParameters({
        tessedit_char_whitelist: '0123456789.,¢',
        tessedit_pageseg_mode: PSM.SINGLE_LINE,
      });
      return worker;
    });
    return this.#digits;
  }

  #ensureWorker(): Promise<Worker> {
    this.#worker ??= this.#createWorker();
    return this.#worker;
  }

  #createWorker(): Promise<Worker> {
    return createWorker('eng', 1, { langPath: englishDataPath(), gzip: true, cacheMethod: 'none' });
  }
}
