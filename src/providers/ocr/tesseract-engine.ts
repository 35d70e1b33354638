import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createWorker, PSM, type Worker } from 'tesseract.js';
import type { ImageRegion, OcrEngine, OcrWord, PriceGlyphs } from './ocr.ts';
import { findTallGlyphRuns } from './glyph-runs.ts';
import { readPriceGlyphs } from './price-glyphs.ts';

const require = createRequire(import.meta.url);

/** Traineddata shipped in npm packages (`@tesseract.js-data/<code>`): no network at run time. */
function dataPath(code: string): string {
  return (require(`@tesseract.js-data/${code}`) as { langPath: string }).langPath;
}

/** tesseract.js reads every language of a worker from one folder: link the packages' files into one. */
function combinedDataPath(codes: readonly string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mise-tessdata-'));
  for (const code of codes) {
    const file = `${code}.traineddata.gz`;
    symlinkSync(path.join(dataPath(code), file), path.join(dir, file));
  }
  return dir;
}

/**
 * Below this share of letters in confident words, an English reading of a page is noise: the page
 * is likely in another script, and is read again as Persian and Arabic (fas+ara).
 */
const OTHER_SCRIPT_SHARE = 0.25;
const CONFIDENT = 0.7;
const ARABIC_SCRIPT = ['fas', 'ara'] as const;

/**
 * tesseract.js (WASM), workers created lazily and reused across pages: English for pages; Persian
 * and Arabic for pages English cannot read; digits only for re-reading big prices. Recognitions run
 * one at a time through each worker.
 */
export class TesseractEngine implements OcrEngine {
  #latin: Promise<Worker> | undefined;
  #arabic: Promise<Worker> | undefined;
  #arabicData: string | undefined;
  /** Digits only (its parameters would otherwise leak into page reading). */
  #digits: Promise<Worker> | undefined;

  async recognize(image: Buffer): Promise<OcrWord[]> {
    const latin = await readWords(await this.#latinWorker(), image);
    if (confidentLetterShare(latin) >= OTHER_SCRIPT_SHARE) return latin;
    const arabic = await readWords(await this.#arabicWorker(), image);
    return confidentLetters(arabic) > confidentLetters(latin) ? arabic : latin;
  }

  async readPrices(image: Buffer, regions: readonly ImageRegion[]): Promise<Array<PriceGlyphs | undefined>> {
    if (regions.length === 0) return [];
    return readPriceGlyphs(await this.#digitsWorker(), image, regions);
  }

  findTallGlyphRuns(image: Buffer, minHeight: number): Promise<ImageRegion[]> {
    return findTallGlyphRuns(image, minHeight);
  }

  async close(): Promise<void> {
    const workers = [this.#latin, this.#arabic, this.#digits];
    this.#latin = undefined;
    this.#arabic = undefined;
    this.#digits = undefined;
    for (const worker of workers) if (worker) await (await worker).terminate();
    if (this.#arabicData) rmSync(this.#arabicData, { recursive: true, force: true });
    this.#arabicData = undefined;
  }

  #latinWorker(): Promise<Worker> {
    this.#latin ??= createWorker('eng', 1, { langPath: dataPath('eng'), gzip: true, cacheMethod: 'none' });
    return this.#latin;
  }

  #arabicWorker(): Promise<Worker> {
    this.#arabicData ??= combinedDataPath(ARABIC_SCRIPT);
    this.#arabic ??= createWorker([...ARABIC_SCRIPT], 1, {
      langPath: this.#arabicData,
      gzip: true,
      cacheMethod: 'none',
    });
    return this.#arabic;
  }

  #digitsWorker(): Promise<Worker> {
    this.#digits ??= createWorker('eng', 1, {
      langPath: dataPath('eng'),
      gzip: true,
      cacheMethod: 'none',
    }).then(async (worker) => {
      await worker.setParameters({
        tessedit_char_whitelist: '0123456789.,¢',
        tessedit_pageseg_mode: PSM.SINGLE_LINE,
      });
      return worker;
    });
    return this.#digits;
  }
}

async function readWords(worker: Worker, image: Buffer): Promise<OcrWord[]> {
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

const letters = (word: OcrWord) => (word.text.match(/\p{L}/gu) ?? []).length;

function confidentLetters(words: readonly OcrWord[]): number {
  return words.filter((w) => w.confidence >= CONFIDENT).reduce((sum, w) => sum + letters(w), 0);
}

function confidentLetterShare(words: readonly OcrWord[]): number {
  const all = words.reduce((sum, w) => sum + letters(w), 0);
  return all === 0 ? 1 : confidentLetters(words) / all;
}
