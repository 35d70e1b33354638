import { createCanvas, type Image } from '@napi-rs/canvas';
import { readArabicIndicNumbers } from './arabic-digits.ts';
import { findTallGlyphRuns } from './glyph-runs.ts';
import type { ImageRegion, OcrWord } from './ocr.ts';
import { decodedPicture } from './picture.ts';

/**
 * Display prices of an Arabic-script page, read from the ink: runs of glyphs at least as tall as
 * its words (the point and ٠ between digits are not tall, so runs on one baseline close together
 * are read as one), each read by the Arabic-Indic digit reader. A number found replaces the words
 * OCR made of its digits ("4۹", ":۹۹" for "٩.٢٩", "٣.٩٩"); the words beside it ("درهم") stay.
 */
export async function withArabicIndicPrices(image: Buffer, words: readonly OcrWord[]): Promise<OcrWord[]> {
  const wordHeight = medianLetterWordHeight(words);
  if (wordHeight === undefined) return [...words];
  const picture = await decodedPicture(image);
  // Display prices first, then the small ones of notes ("السعر السابق ٣.٦٩ درهم"), where no display
  // price was found.
  const found: OcrWord[] = [];
  // Prices whose digits OCR read as sure Latin ones: kept aside until the page's digits are known.
  const overRead: OcrWord[] = [];
  // A hostile picture's runs are read up to a budget: a few times the page's own pixels.
  let budget = picture.width * picture.height * PIXEL_BUDGET;
  for (const minHeight of [Math.max(MIN_DIGIT_PIXELS, wordHeight * 0.7), MIN_DIGIT_PIXELS]) {
    const runs = joinedRuns(await findTallGlyphRuns(image, minHeight, { bars: true })).filter(
      (run) => !found.some((number) => overlaps(number, run)),
    );
    for (const run of runs.slice(0, MAX_RUNS)) {
      budget -= run.width * run.height * 2.6; // with its margins
      if (budget < 0) break;
      for (const number of readRun(picture, run)) {
        // Latin digits OCR is sure of (a phone number, a date) are not Arabic-Indic ones misread,
        // unless the page prints Arabic-Indic digits (below).
        if (!underSureLatinDigits(number, words)) {
          if (isPrice(number, words)) found.push(number);
        } else if (TWO_DECIMALS.test(number.text)) overRead.push(number);
      }
    }
  }
  if (printsArabicIndicDigits(found, overRead))
    found.push(...overRead.filter((number) => !found.some((other) => overlaps(other, number))));
  if (found.length === 0) return [...words];
  const kept = words.filter((word) => !found.some((number) => covers(number, word)));
  return [...kept, ...found].sort((a, b) => a.y - b.y || b.x - a.x);
}

/** The numbers in a run of glyphs (with room around it for the point, ٠ and low marks). */
function readRun(picture: Image, run: ImageRegion): OcrWord[] {
  const margin = Math.round(run.height * 0.3);
  const x = Math.max(0, Math.floor(run.x) - margin);
  const y = Math.max(0, Math.floor(run.y) - margin);
  const width = Math.min(picture.width - x, Math.ceil(run.width) + 2 * margin);
  const height = Math.min(picture.height - y, Math.ceil(run.height) + 2 * margin);
  if (width < 4 || height < 8) return [];
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.drawImage(picture, x, y, width, height, 0, 0, width, height);
  return readArabicIndicNumbers(g.getImageData(0, 0, width, height).data, width, height).map((number) => ({
    text: number.text,
    x: x + number.box.left,
    y: y + number.box.top,
    width: number.box.right - number.box.left + 1,
    height: number.box.bottom - number.box.top + 1,
    confidence: number.confidence,
    settled: true,
  }));
}

/** Digits this small are body text, which OCR reads. */
const MIN_DIGIT_PIXELS = 10;
/** More display prices than any page prints; a hostile picture's thousands of runs are not all read. */
const MAX_RUNS = 120;
/** Pixels read in runs, in pages' worth (a real page's runs cover well under one). */
const PIXEL_BUDGET = 2;

/**
 * A price with two decimals; or a whole number ("١٥" of "٢ حبة ١٥ درهم") read with some certainty
 * where OCR read no letters: letters can pass for digits (alef for ١, heh for ٥), two decimals
 * after a point hardly. A single digit only stands in for digits OCR read there ("۲۰" for "٢").
 */
function isPrice(number: OcrWord, words: readonly OcrWord[]): boolean {
  if (TWO_DECIMALS.test(number.text)) return true;
  const over = words.filter((word) => overlaps(word, number));
  if (number.confidence < WHOLE_NUMBER_SURE || over.some((word) => /\p{L}/u.test(word.text))) return false;
  return number.text.length >= 2 || over.some((word) => /\p{Nd}/u.test(word.text));
}

const TWO_DECIMALS = /^\d{1,4}\.\d{2}$/;
const WHOLE_NUMBER_SURE = 0.35;
const SURE_LATIN_DIGITS = 0.9;

function underSureLatinDigits(number: OcrWord, words: readonly OcrWord[]): boolean {
  return words.some(
    (word) => overlaps(word, number) && word.confidence >= SURE_LATIN_DIGITS && /\d/.test(word.text),
  );
}

/**
 * Whether the page prints its prices in Arabic-Indic digits: most prices the digit reader found
 * lie where OCR read no sure Latin digits. There, OCR's sure Latin reading of a price is a misread
 * one ("٥.٩٩" read "0.99" at 0.91: ٥ is a ring); on a page printing Western digits, OCR's reading
 * stands (the digit reader takes a Latin 0 for a ٥).
 */
function printsArabicIndicDigits(found: readonly OcrWord[], overRead: readonly OcrWord[]): boolean {
  const prices = found.filter((number) => TWO_DECIMALS.test(number.text)).length;
  return overRead.length > 0 && prices >= MIN_PAGE_PRICES && prices >= overRead.length * 3;
}

/** Prices a page must show in Arabic-Indic digits before its digits are known. */
const MIN_PAGE_PRICES = 4;

function overlaps(a: ImageRegion, b: ImageRegion): boolean {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 && w * h > 0.2 * Math.min(a.width * a.height, b.width * b.height);
}

/** A word OCR made of the number's digits: its middle inside the number, and no letter in it. */
function covers(number: OcrWord, word: OcrWord): boolean {
  if (/\p{L}/u.test(word.text)) return false;
  const cx = word.x + word.width / 2;
  const cy = word.y + word.height / 2;
  const slack = number.height * 0.2;
  return (
    cx >= number.x - slack &&
    cx <= number.x + number.width + slack &&
    cy >= number.y - slack &&
    cy <= number.y + number.height + slack
  );
}

/** Runs on one baseline with less than 1.2 × their height between them: one price cut at its point. */
function joinedRuns(runs: readonly ImageRegion[]): ImageRegion[] {
  const out: ImageRegion[] = [];
  for (const run of [...runs].sort((a, b) => a.x - b.x)) {
    const before = out.find(
      (r) =>
        Math.abs(r.y + r.height - (run.y + run.height)) <= run.height * 0.25 &&
        run.x >= r.x &&
        run.x - (r.x + r.width) <= run.height * 1.2,
    );
    if (!before) {
      out.push({ ...run });
      continue;
    }
    const right = Math.max(before.x + before.width, run.x + run.width);
    const bottom = Math.max(before.y + before.height, run.y + run.height);
    before.y = Math.min(before.y, run.y);
    before.width = right - before.x;
    before.height = bottom - before.y;
  }
  return out;
}

function medianLetterWordHeight(words: readonly OcrWord[]): number | undefined {
  const heights = words
    .filter((w) => /\p{L}/u.test(w.text))
    .map((w) => w.height)
    .sort((a, b) => a - b);
  return heights[Math.floor(heights.length / 2)];
}
