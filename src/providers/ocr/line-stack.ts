import { createCanvas, type Canvas, type Image } from '@napi-rs/canvas';
import { pngOf } from './png.ts';
import type { ImageRegion, OcrWord } from './ocr.ts';

/** Lines shorter than this are drawn larger on the stack: the engine reads best at ~30 px type. */
const MIN_LINE_HEIGHT = 32;
const MAX_UPSCALE = 3;
const MARGIN = 12;

/** Where one line of the page was drawn on the stack. */
export interface LinePlacement {
  line: ImageRegion;
  /** Top of the line on the stack. */
  top: number;
  scale: number;
}

/**
 * The page's text lines drawn one under the other, in reading order, on a white sheet: a photo
 * page's scattered lines (names above photos, prices on plaques) become a plain column of print
 * that the OCR engine reads as one block, each line apart from its neighbours.
 */
export function stackLines(
  picture: Canvas | Image,
  lines: readonly ImageRegion[],
): { png: Buffer; placements: LinePlacement[] } {
  const ordered = [...lines].sort((a, b) => a.y - b.y || a.x - b.x);
  const placements: LinePlacement[] = [];
  let top = MARGIN;
  let width = 1;
  for (const line of ordered) {
    const scale = Math.min(MAX_UPSCALE, Math.max(1, MIN_LINE_HEIGHT / line.height));
    placements.push({ line, top, scale });
    top += Math.round(line.height * scale) + Math.max(MARGIN, Math.round(line.height * scale * 0.6));
    width = Math.max(width, Math.round(line.width * scale));
  }
  const canvas = createCanvas(width + 2 * MARGIN, Math.max(top, 1));
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  for (const { line, top: y, scale } of placements) {
    g.drawImage(
      picture,
      line.x,
      line.y,
      line.width,
      line.height,
      MARGIN,
      y,
      line.width * scale,
      line.height * scale,
    );
  }
  return { png: pngOf(canvas), placements };
}

/** Words read on the stack, back where their line is on the page (a word belongs to one line). */
export function wordsOnPage(words: readonly OcrWord[], placements: readonly LinePlacement[]): OcrWord[] {
  const out: OcrWord[] = [];
  for (const word of words) {
    const centre = word.y + word.height / 2;
    const placement = placements.find((p) => centre >= p.top && centre <= p.top + p.line.height * p.scale);
    if (!placement) continue; // a stray mark in the gap between lines
    const { line, top, scale } = placement;
    const x = line.x + (word.x - MARGIN) / scale;
    const y = line.y + (word.y - top) / scale;
    out.push({
      ...word,
      x: Math.max(line.x, x),
      y: Math.max(line.y, y),
      width: Math.min(word.width / scale, line.x + line.width - Math.max(line.x, x)),
      height: Math.min(word.height / scale, line.y + line.height - Math.max(line.y, y)),
    });
  }
  return out;
}
