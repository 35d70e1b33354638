import { createRequire } from 'node:module';
import { createWorker, type Worker } from 'tesseract.js';
import type { OcrEngine, OcrWord } from './ocr.ts';

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

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await (await worker).terminate();
  }

  #ensureWorker(): Promise<Worker> {
    this.#worker ??= createWorker('eng', 1, {
      langPath: englishDataPath(),
      gzip: true,
      cacheMethod: 'none',
    });
    return this.#worker;
  }
}
