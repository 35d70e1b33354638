import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Canvas } from '@napi-rs/canvas';
import { createWorker, OEM, PSM, type RecognizeOptions, type Worker, type WorkerParams } from 'tesseract.js';
import type {
  ImageRegion,
  LevelledPicture,
  OcrDocument,
  OcrEngine,
  OcrEngineOptions,
  OcrWord,
  PriceGlyphs,
} from './ocr.ts';
import { stackLines, wordsOnPage } from './line-stack.ts';
import {
  mayHoldPrices,
  missedLines,
  onLines,
  isReadAgain,
  readingOrder,
  unreadStrips,
  rowStrips,
  withLinesReread,
  withPriceLines,
} from './missed-lines.ts';
import { PaddleLineRecognizer } from './line-recognizer.ts';
import { findTallGlyphRuns } from './glyph-runs.ts';
import { withArabicIndicPrices } from './arabic-prices.ts';
import { readPriceGlyphs } from './price-glyphs.ts';
import { TextLineDetector } from './text-detector.ts';
import { isolateText } from './text-isolation.ts';
import { levelled, quarterTurned } from './skew.ts';
import { evenlyLit } from './lighting.ts';
import { LineDirectionClassifier, type LineTurns, type Turn } from './line-direction.ts';
import { ArabicScriptFoods, spelledAsFood } from './arabic-spelling.ts';
import { withFoodsHeadingNames, withoutUnreadQualifiers } from './persian-names.ts';
import {
  PreferredSpellings,
  SPELLING_LANGUAGES,
  SpellingCorrector,
  spelledAsFoods,
  type SpellingLanguage,
} from './spelling.ts';
import { decodedPicture } from './picture.ts';
import { CONFIDENT, confidentLetters, lettersIn, readsPoorly } from './letters.ts';
import { pricesIn, stripsWithFigures, withMisreadPrices } from './display-prices.ts';
import { practicePage } from './practice-page.ts';

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
/** The price recogniser's mean character probability from which its reading of a line is kept. */
const PRICE_SURE = 0.8;
/** …and from which its reading of a line the page reading read stands over that reading. */
const PRICE_CHECK_SURE = 0.9;
/**
 * Tesseract's orientation confidence from which a page is turned: turned pages read 0.66–7 (the
 * real flyers' photo pages the least), upright ones 0.4–2.3 but always as upright. The reader
 * keeps the turned reading only when it reads more.
 */
const SURE_ORIENTATION = 0.5;
/**
 * The lines agree on a turn when the direction classifier is sure of this many needing it, and of
 * this many times as many as needing any other: the real flyers rasterised upside down 11–32 lines
 * against 0–4 needing another turn, turned a quarter either way 6–29 against 0–4; upright real,
 * generated and rasterised pages 8–31 against 0–9 (the fewest and the most Arabic-script ones, which
 * the classifier knows least: 8 against 8 is no agreement, and tesseract's detection decides).
 */
const AGREED = { lines: 5, majority: 2 };
/** Lines agreeing by far: generated Arabic-script pages, upright, 8–19 lines upright against 2–9 upside down. */
const SURELY_TURNED = { lines: 8, majority: 4 };

function isTurned(turn: Turn | undefined): boolean {
  return turn !== undefined && turn !== 0;
}

function agreedTurn(turns: LineTurns, agreement: { lines: number; majority: number }): Turn | undefined {
  const [best, next] = (Object.entries(turns) as Array<[string, number]>).sort((a, b) => b[1] - a[1]);
  if (best![1] < agreement.lines || best![1] < next![1] * agreement.majority) return undefined;
  return Number(best![0]) as Turn;
}

/** How a picture is read: its page segmentation, and whether it is the isolated print. */
interface HowRead {
  segmentation?: PSM;
  /**
   * The picture is the lines' type redrawn dark on white (`isolateText`): tesseract's retry of a
   * line it reads poorly as light type on dark is off, for it finds nothing there but costs a
   * second recognition of that line (savegnago's stacked lines 21.6 → 17.5 s of CPU, 4 pages).
   */
  print?: boolean;
}
const PRINT: HowRead = { print: true };

/** Strips read on their own a page, at most. */
const MAX_LINES_ALONE = 8;
/** A strip narrower than this many of its heights may hold one word. */
const WORD_SHAPE = 5;
const ARABIC_SCRIPT = ['fas', 'ara'] as const;
const SPELLING: Record<PageLanguage | 'eng', SpellingLanguage | undefined> = {
  eng: 'en',
  por: 'pt',
  spa: 'es',
  fra: 'fr',
  deu: undefined,
  ita: undefined,
};
/** Languages whose dictionaries are GPL-only and not shipped: their foods' names are the words to check. */
const FOODS_ONLY: Partial<Record<PageLanguage, 'de' | 'it'>> = { deu: 'de', ita: 'it' };
/** One per process: dictionaries are read once (~40 MB of heap for Portuguese) and never change. */
const spelling = new SpellingCorrector();

/**
 * tesseract.js (WASM), workers created lazily and reused across pages: English for pages; Persian
 * and Arabic for pages English cannot read; digits only for re-reading big prices. Recognitions run
 * one at a time through each worker.
 */
export class TesseractEngine implements OcrEngine {
  #latin: Promise<Worker> | undefined;
  #arabic: Promise<Worker> | undefined;
  #arabicData: string | undefined;
  /** Digits and the marks of prices and multi-buys, "/" and "$" (its parameters would otherwise leak into page reading). */
  #digits: Promise<Worker> | undefined;
  /** Orientation and script detection, created when a page first reads as if its type were not upright. */
  #orientation: Promise<Worker> | undefined;
  /** Latin-script languages other than English, each loaded when a page is first in it. */
  #languages: Partial<Record<PageLanguage, Promise<Worker>>> = {};
  readonly #lines = new TextLineDetector();
  readonly #directions = new LineDirectionClassifier();
  readonly #detected = new WeakMap<Buffer, Promise<ImageRegion[]>>();
  readonly #lineTurns = new WeakMap<Buffer, Promise<LineTurns>>();
  readonly #prices = new PaddleLineRecognizer();
  readonly #options: OcrEngineOptions;
  readonly #preferred = new Map<SpellingLanguage | 'de' | 'it', PreferredSpellings>();
  readonly #arabicFoods = new Map<'ar' | 'fa', ArabicScriptFoods>();

  constructor(options: OcrEngineOptions = {}) {
    this.#options = options;
  }

  /**
   * The page as tesseract reads it, then the text lines a detector finds that it missed (type on
   * photos, plaques, badges) read again: drawn as plain print one row strip under the other, and
   * display prices among them by the price recogniser. Tesseract's unsure words where the
   * detector sees no text (photo texture) are left out.
   */
  async recognize(image: Buffer, document: OcrDocument = {}): Promise<OcrWord[]> {
    // Tesseract reads in its worker thread while the detector and the price recogniser run on
    // this one's: what does not depend on the other's answer runs at the same time (~1.5 s of a
    // dense page's ~15 s on two cores).
    const detected = this.#detect(image);
    const [lines, reading] = await Promise.all([detected, this.#pageReading(image, document, detected)]);
    // A page read poorly whose lines stand turned, surely, is left as read: the reader turns it
    // upright and reads it again (`upright`), and the stack and the price checks would read its
    // lines turned for nothing.
    if (readsPoorly(reading) && isTurned(await this.#turnOf(image, SURELY_TURNED))) return reading;
    const words = onLines(reading, lines);
    const missed = missedLines(lines, words);
    const checking = this.#checkedPrices(image, lines, stripsWithFigures(lines, missed, words), words);
    const strips = rowStrips(missed);
    if (strips.length === 0) return this.#spelt(image, readingOrder(await checking), document);
    // The stack is read in the page reading's language: the checked prices change no word's letters.
    const [read, { isolated, stacked }] = await Promise.all([
      checking,
      this.#stacked(image, lines, strips, words),
    ]);
    const reread = [...stacked, ...(await this.#linesAlone(isolated, unreadStrips(strips, stacked), read))];
    const prices = await this.#priceLines(image, lines, mayHoldPrices(strips, reread), reread);
    const all = readingOrder(withLinesReread(read, strips, withPriceLines(reread, prices)));
    return this.#spelt(image, all, document);
  }

  /** The strips drawn as plain print one under the other, and read so. */
  async #stacked(
    image: Buffer,
    lines: readonly ImageRegion[],
    strips: readonly ImageRegion[],
    context: readonly OcrWord[],
  ): Promise<{ isolated: Canvas; stacked: OcrWord[] }> {
    const isolated = await isolateText(image, lines);
    const stack = stackLines(isolated, strips);
    return { isolated, stacked: wordsOnPage(await this.#read(stack.png, context, PRINT), stack.placements) };
  }

  /**
   * The page reading's lines that show figures read again by the price recogniser: where it reads
   * one price whose figures differ from the page reading's, its reading stands (tesseract reads a
   * condensed display "$4.99LB" as "S4991B", "2X$6.00" as "2496.00").
   */
  async #checkedPrices(
    image: Buffer,
    lines: readonly ImageRegion[],
    strips: readonly ImageRegion[],
    words: OcrWord[],
  ): Promise<OcrWord[]> {
    // Arabic-script pages' prices are read by their own digit reader (the recogniser has no Arabic-Indic digits).
    if (strips.length === 0 || arabicScriptShare(words) > 0.5) return words;
    const picture = await decodedPicture(image);
    const read = (region: ImageRegion) => this.#prices.read(picture, region);
    const readings = [];
    for (const strip of strips)
      readings.push(...(await pricesIn(strip, lines, read, PRICE_CHECK_SURE, words)));
    return withMisreadPrices(words, readings);
  }

  /**
   * Strips the stack's reading left empty, each read on its own: as one line, and as one word when
   * shaped like a word. Tesseract reads a stack as one block, by its lines' common height, and
   * drops a short line among taller ones: a one-word name over its price ("پسته", "لبنة"), a card
   * note. Bounded a page: a hostile picture's lines are many.
   */
  async #linesAlone(picture: Canvas, strips: readonly ImageRegion[], context: readonly OcrWord[]) {
    const found: OcrWord[] = [];
    for (const strip of [...strips].sort((a, b) => a.y - b.y).slice(0, MAX_LINES_ALONE)) {
      const alone = stackLines(picture, [strip]);
      const reading = (segmentation: PSM) => this.#read(alone.png, context, { ...PRINT, segmentation });
      let read = wordsOnPage(await reading(PSM.SINGLE_LINE), alone.placements);
      if (!read.some(isReadAgain) && strip.width < strip.height * WORD_SHAPE)
        read = wordsOnPage(await reading(PSM.SINGLE_WORD), alone.placements);
      found.push(...read);
    }
    return found;
  }

  /**
   * The page read in the language (or the Arabic script) its document's earlier pages were found
   * in, when that reading is in the page's script; else read as a first page is (English first,
   * then the language or script its words show), what was found being noted for the next pages.
   * A reading's script is judged by its words on the detected `lines`: photos' texture, read as
   * unsure marks, made a Latin photo page look like another script and read again in Arabic
   * script (~3–5 s).
   */
  async #pageReading(
    image: Buffer,
    document: OcrDocument,
    detected: Promise<readonly ImageRegion[]>,
  ): Promise<OcrWord[]> {
    const known = documentLanguage(document);
    if (known) {
      const words = await readWords(await this.#languageWorker(known), image);
      if (confidentLetterShare(onLines(words, await detected)) >= OTHER_SCRIPT_SHARE) return words;
    }
    // An Arabic-script document's next pages skip the English reading a first page needs (~0.7–0.9 s).
    const arabic =
      document.script === 'arabic' ? await readWords(await this.#arabicWorker(), image) : undefined;
    if (arabic && isArabicScriptReading(onLines(arabic, await detected))) return arabic;
    const words = await this.#read(image, [], {}, arabic, detected);
    if (arabicScriptShare(words) > 0.5) document.script = 'arabic';
    else {
      const found = pageLanguage(words);
      if (found) document.language = found;
    }
    return words;
  }

  /**
   * The page's words checked against its language's dictionary (German's foods alone: see spelling.ts);
   * an Arabic-script page's display prices read by the Arabic-Indic digit reader instead.
   */
  async #spelt(image: Buffer, words: OcrWord[], document: OcrDocument): Promise<OcrWord[]> {
    if (arabicScriptShare(words) > 0.5) {
      const read = await withArabicIndicPrices(image, words);
      const persian = isPersian(read);
      const foods = this.#foodsIn(persian ? 'fa' : 'ar');
      if (!foods) return persian ? spelling.correct(read, 'fa') : read;
      const spelt = persian
        ? withFoodsHeadingNames(await spelling.correct(read, 'fa', undefined, foods), foods)
        : read.map((word) => spelledAsFood(word, foods) ?? word);
      return withoutUnreadQualifiers(spelt, foods);
    }
    // The lines read again may show the language where the page reading did not.
    const found = pageLanguage(words);
    if (found) document.language ??= found;
    const known = documentLanguage(document);
    const language = SPELLING[found ?? known ?? 'eng'];
    if (language) return spelling.correct(words, language, this.#preferredIn(language));
    // German has no dictionary here: its foods' names are the only words to check against.
    const foodsOnly = FOODS_ONLY[found ?? known ?? 'por'];
    const foods = foodsOnly ? this.#preferredIn(foodsOnly) : undefined;
    return foods ? spelledAsFoods(words, foods) : words;
  }

  /**
   * `context`: words already read on the same page. When there are some, this reading is made in
   * their script and language directly (no English pass to find the language again, no Arabic
   * pass when the page was read in Latin script).
   */
  async #read(
    image: Buffer,
    context: readonly OcrWord[],
    how: HowRead = {},
    arabicReading?: OcrWord[],
    lines?: Promise<readonly ImageRegion[]>,
  ): Promise<OcrWord[]> {
    if (context.length > 0) {
      const read = async (worker: Promise<Worker>) => readWords(await worker, image, how);
      if (arabicScriptShare(context) > 0.5) return read(this.#arabicWorker());
      const known = pageLanguage(context);
      if (known) return read(this.#languageWorker(known));
      return this.#inPageLanguage(image, await read(this.#latinWorker()), context, how);
    }
    const latin = await this.#inPageLanguage(
      image,
      await readWords(await this.#latinWorker(), image, how),
      [],
      how,
    );
    if (confidentLetterShare(lines ? onLines(latin, await lines) : latin) >= OTHER_SCRIPT_SHARE) return latin;
    // A page whose lines stand turned reads poorly in any script: the reader turns it upright and
    // reads it again (`upright`), so it is not read in Arabic script first (savegnago's pages
    // upside down, ~5 s a page). Only when its lines agree by far: the classifier knows Arabic
    // script least (upright Arabic pages: up to 8 lines upside down against 8 upright).
    if (lines && isTurned(await this.#turnOf(image, SURELY_TURNED))) return latin;
    const arabic = arabicReading ?? (await readWords(await this.#arabicWorker(), image, how));
    return confidentLetters(arabic) > confidentLetters(latin) ? arabic : latin;
  }

  /** The strips read again that may hold prices, by the price recogniser; `reread`, their words as read again. */
  async #priceLines(
    image: Buffer,
    lines: readonly ImageRegion[],
    strips: readonly ImageRegion[],
    reread: readonly OcrWord[],
  ) {
    const picture = await decodedPicture(image);
    const read = (region: ImageRegion) => this.#prices.read(picture, region);
    const prices = [];
    for (const strip of strips) prices.push(...(await pricesIn(strip, lines, read, PRICE_SURE, reread)));
    return prices;
  }

  async readPrices(image: Buffer, regions: readonly ImageRegion[]): Promise<Array<PriceGlyphs | undefined>> {
    if (regions.length === 0) return [];
    return readPriceGlyphs(await this.#digitsWorker(), image, regions);
  }

  async levelled(image: Buffer): Promise<LevelledPicture> {
    return levelled(image);
  }

  evenlyLit(image: Buffer): Promise<Buffer> {
    return evenlyLit(image);
  }

  /** The text lines a picture's detector finds, found once a picture (the page reading and the upright check ask). */
  #detect(image: Buffer): Promise<ImageRegion[]> {
    let lines = this.#detected.get(image);
    if (!lines) {
      lines = this.#lines.detect(image);
      this.#detected.set(image, lines);
    }
    return lines;
  }

  /** The clockwise turn its detected lines agree would set the picture upright (see `agreedTurn`). */
  async #turnOf(image: Buffer, agreement = AGREED): Promise<Turn | undefined> {
    let turns = this.#lineTurns.get(image);
    if (!turns) {
      turns = decodedPicture(image).then(async (picture) =>
        this.#directions.turns(picture, await this.#detect(image)),
      );
      this.#lineTurns.set(image, turns);
    }
    return agreedTurn(await turns, agreement);
  }

  /**
   * The picture turned upright: by the turn that sets its detected lines upright when PaddleOCR's
   * direction classifier agrees on one (~0.7 s with the detection); else by tesseract's orientation
   * and script detection (its legacy engine and `osd` model, ~0.2–0.4 s a page), the quarter turns
   * that set the type upright, when it is sure of them. Tesseract's detection weighs the whole
   * page's shapes and took pages of photos upside down or sideways for upright (spn, 0.72).
   */
  async upright(image: Buffer): Promise<Buffer | undefined> {
    const turn = await this.#turnOf(image);
    if (turn !== undefined) return turn === 0 ? undefined : quarterTurned(image, turn);
    const { data } = await (await this.#orientationWorker()).detect(image);
    const degrees = data.orientation_degrees;
    if ((data.orientation_confidence ?? 0) < SURE_ORIENTATION) return undefined;
    return degrees === 90 || degrees === 180 || degrees === 270 ? quarterTurned(image, degrees) : undefined;
  }

  findTallGlyphRuns(image: Buffer, minHeight: number): Promise<ImageRegion[]> {
    return findTallGlyphRuns(image, minHeight);
  }

  /**
   * The page reader, the Arabic-script reader, the digit reader and both ONNX models, loaded side
   * by side; then every spelling dictionary and food list, which a page would otherwise load when it
   * is the first in its language (Portuguese's dictionary alone took 1.0–1.3 s of a first page);
   * then a practice page read through every step, and one in Arabic script by its reader.
   */
  async warmUp(): Promise<void> {
    await Promise.all([
      this.#latinWorker(),
      this.#arabicWorker(),
      this.#digitsWorker(),
      this.#lines.load(),
      this.#prices.load(),
    ]);
    for (const language of SPELLING_LANGUAGES) {
      await spelling.load(language);
      this.#preferredIn(language);
    }
    this.#preferredIn('de');
    this.#preferredIn('it');
    this.#foodsIn('ar');
    this.#foodsIn('fa');
    await this.recognize(practicePage('latin'));
    await this.recognize(practicePage('arabic'));
  }

  /** Foods' spellings in `language`. */
  #preferredIn(language: SpellingLanguage | 'de' | 'it'): PreferredSpellings | undefined {
    if (language === 'fa' || !this.#options.preferredSpellings) return undefined;
    let preferred = this.#preferred.get(language);
    if (!preferred) {
      preferred = new PreferredSpellings(this.#options.preferredSpellings(language));
      this.#preferred.set(language, preferred);
    }
    return preferred;
  }

  /** Foods' names in Arabic or Persian (npm has no Arabic dictionary: the only word list here). */
  #foodsIn(language: 'ar' | 'fa'): ArabicScriptFoods | undefined {
    if (!this.#options.preferredSpellings) return undefined;
    let foods = this.#arabicFoods.get(language);
    if (!foods) {
      foods = new ArabicScriptFoods(this.#options.preferredSpellings(language));
      this.#arabicFoods.set(language, foods);
    }
    return foods;
  }

  async close(): Promise<void> {
    const workers = [
      this.#latin,
      this.#arabic,
      this.#digits,
      this.#orientation,
      ...Object.values(this.#languages),
    ];
    this.#languages = {};
    this.#latin = undefined;
    this.#arabic = undefined;
    this.#digits = undefined;
    this.#orientation = undefined;
    await this.#lines.close();
    await this.#prices.close();
    await this.#directions.close();
    for (const worker of workers) if (worker) await (await worker).terminate();
    if (this.#arabicData) rmSync(this.#arabicData, { recursive: true, force: true });
    this.#arabicData = undefined;
  }

  /**
   * English reads other Latin-script languages without their accents ("Feijao", "Cafe"). Where the
   * page's language has a dictionary, the spelling step gives them back and the English reading
   * stands (a second full pass cost ~1.5 s a page and scored no better: generated seeds 1–4, 364
   * against 368 matches); a German page is read again with the German model, and the reading with
   * more confident letters is kept. Later pages of the document are read in its language directly.
   */
  async #inPageLanguage(
    image: Buffer,
    english: OcrWord[],
    context: readonly OcrWord[] = [],
    how: HowRead = {},
  ): Promise<OcrWord[]> {
    const language = pageLanguage([...context, ...english]);
    if (!language || SPELLING[language]) return english;
    const native = await readWords(await this.#languageWorker(language), image, how);
    return confidentLetters(native) >= confidentLetters(english) ? native : english;
  }

  #languageWorker(language: PageLanguage): Promise<Worker> {
    this.#languages[language] ??= createWorker(language, 1, {
      langPath: dataPath(language),
      gzip: true,
      cacheMethod: 'none',
    });
    return this.#languages[language];
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

  #orientationWorker(): Promise<Worker> {
    this.#orientation ??= createWorker('osd', OEM.TESSERACT_ONLY, {
      langPath: dataPath('osd'),
      gzip: true,
      cacheMethod: 'none',
      legacyCore: true,
      legacyLang: true,
    });
    return this.#orientation;
  }

  #digitsWorker(): Promise<Worker> {
    this.#digits ??= createWorker('eng', 1, {
      langPath: dataPath('eng'),
      gzip: true,
      cacheMethod: 'none',
    }).then(async (worker) => {
      await worker.setParameters({
        tessedit_char_whitelist: '0123456789.,¢/$',
        tessedit_pageseg_mode: PSM.SINGLE_LINE,
      });
      return worker;
    });
    return this.#digits;
  }
}

/** `segmentation`: how tesseract finds the text (tesseract.js's default: one block), for this reading only. */
async function readWords(worker: Worker, image: Buffer, how: HowRead = {}): Promise<OcrWord[]> {
  // tesseract.js passes a recognition's tesseract parameters through and restores them after it
  // (its types list only its own options): setParameters would change them for every reading.
  const parameters: Partial<RecognizeOptions & WorkerParams> & Record<string, string> = {};
  if (how.segmentation) parameters.tessedit_pageseg_mode = how.segmentation;
  if (how.print) parameters.tessedit_do_invert = '0';
  const result = await worker.recognize(image, parameters, { blocks: true, text: false });
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

/** The share of the words' letters that are Arabic script (Persian, Arabic). */
function arabicScriptShare(words: readonly OcrWord[]): number {
  const all = lettersIn(words);
  const arabic = words.reduce((sum, w) => sum + (w.text.match(/\p{Script=Arabic}/gu) ?? []).length, 0);
  return all === 0 ? 0 : arabic / all;
}

/**
 * A page in Persian rather than Arabic: it shows letters Arabic does not have (پ چ ژ گ) more than
 * marks of Arabic Persian does not use: ة and the article ال heading a word. (Not ى: the Arabic
 * model ends Persian words with it, "جاى" for "چای".) There is no Arabic dictionary to check the
 * other against.
 */
export function isPersian(words: readonly OcrWord[]): boolean {
  const text = words.map((w) => w.text).join(' ');
  const persian = (text.match(/[پچژگ]/gu) ?? []).length;
  const arabic = (text.match(/ة|(?<!\p{L})ال(?=\p{L}{2})/gu) ?? []).length;
  return persian >= 2 && persian > arabic;
}

/**
 * A reading by the Arabic-script model that is one: mostly that script, a share of its letters in
 * confident words as an English reading of a Latin page needs. Latin type read by it is neither.
 */
function isArabicScriptReading(words: readonly OcrWord[]): boolean {
  return arabicScriptShare(words) > 0.5 && confidentLetterShare(words) >= OTHER_SCRIPT_SHARE;
}

function confidentLetterShare(words: readonly OcrWord[]): number {
  const all = lettersIn(words);
  return all === 0 ? 1 : confidentLetters(words) / all;
}

const LATIN_LANGUAGES = ['por', 'spa', 'fra', 'deu', 'ita'] as const;
type PageLanguage = (typeof LATIN_LANGUAGES)[number];

/**
 * Words that mark a flyer's language (grammar words, price and offer words), read without accents.
 * Portuguese and Spanish share many ("de", "ofertas", "válidas", "pague"): each lists them, so the
 * words only one of them prints decide.
 */
const LANGUAGE_WORDS: Record<PageLanguage | 'eng', RegExp> = {
  eng: /^(?:the|and|of|for|with|each|per|lb|lbs|oz|was|save|price|prices|only|fresh|sale|off|buy|get)$/,
  por: /^(?:de|do|da|com|cada|unidade|leve|pague|por|r\$|rs|oferta|ofertas|validas|ate|sem|cartao|e|o|a|kg)$/,
  spa: /^(?:de|del|al|el|la|los|las|con|cada|por|oferta|ofertas|validas|hasta|sin|tarjeta|unidad|precio|lleve|pague|ahorra|ahorro|y|kg)$/,
  fra: /^(?:le|la|les|au|aux|du|de|des|et|prix|sans|carte|offre|offres|lieu|economisez|kg)$/,
  deu: /^(?:und|je|mit|statt|nur|angebot|angebote|gultig|bis|vom|stuck|packung|ohne|kundenkarte|kg)$/,
  ita: /^(?:di|del|della|delle|dello|il|in|al|alla|con|e|per|prezzo|prezzi|offerta|offerte|sconto|risparmio|sottocosto|valido|valida|dal|fino|ogni|confezione|omaggio|pz|kg)$/,
};

/** The language an earlier page of the document was found in, when it is one read here. */
function documentLanguage(document: OcrDocument): PageLanguage | undefined {
  return LATIN_LANGUAGES.find((language) => language === document.language);
}

/** The page's language when its confident words say clearly that it is not English. */
export function pageLanguage(words: readonly OcrWord[]): PageLanguage | undefined {
  const hits: Record<string, number> = Object.fromEntries(Object.keys(LANGUAGE_WORDS).map((l) => [l, 0]));
  for (const word of words) {
    if (word.confidence < CONFIDENT) continue;
    const plain = word.text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z$]/g, '');
    for (const [language, pattern] of Object.entries(LANGUAGE_WORDS))
      if (pattern.test(plain)) hits[language]! += 1;
  }
  const [best, count] = (Object.entries(hits) as Array<[PageLanguage | 'eng', number]>)
    .filter(([language]) => language !== 'eng')
    .sort((a, b) => b[1] - a[1])[0]!;
  if (best === 'eng' || count < 3 || count <= hits.eng! * 1.5) return undefined;
  return best;
}
