import { isInk } from './ink.ts';
import type { ImageRegion } from './ocr.ts';
import { components, type Component } from './components.ts';
import { decodedPicture, scaledRgba } from './picture.ts';

/** Components are found on the image scaled to at most this width (speed; prices stay large)… */
const WORK_WIDTH = 700;
/** …and at most this many pixels, whatever its shape (a very tall image must not cost gigabytes). */
const WORK_PIXELS = 4_000_000;

/**
 * Runs of tall glyphs side by side on one baseline, in image pixels: where big prices are, found
 * from the ink itself (whole-page OCR often misses display digits altogether). A glyph is a
 * connected patch of ink at least `minHeight` tall, not much wider than tall, and hollow enough to
 * be a stroke shape rather than a filled photo blob.
 */
export async function findTallGlyphRuns(
  image: Buffer,
  minHeight: number,
  options: { bars?: boolean } = {},
): Promise<ImageRegion[]> {
  const picture = await decodedPicture(image);
  const scale = Math.min(
    1,
    WORK_WIDTH / picture.width,
    Math.sqrt(WORK_PIXELS / (picture.width * picture.height)),
  );
  const { width, height, rgba } = scaledRgba(picture, scale);
  const ink = new Uint8Array(width * height);
  for (let i = 0; i < ink.length; i += 1) ink[i] = isInk(rgba, i * 4) ? 1 : 0;
  const glyphs = components(ink, width, height).filter((c) => isGlyph(c, minHeight * scale, height, options));
  return runs(glyphs).map((r) => ({
    x: r.left / scale,
    y: r.top / scale,
    width: (r.right - r.left + 1) / scale,
    height: (r.bottom - r.top + 1) / scale,
  }));
}

/**
 * `bars`: a solid upright bar counts too (an Arabic-Indic ١ fills its box; in Latin print such a bar
 * is as often a rule or a frame's edge as a digit).
 */
function isGlyph(
  c: Component,
  minHeight: number,
  pageHeight: number,
  { bars = false }: { bars?: boolean },
): boolean {
  const h = c.bottom - c.top + 1;
  const w = c.right - c.left + 1;
  // Display prices are a few times body text, never a frame or a panel.
  if (h < minHeight || h > minHeight * 4 || h > pageHeight * 0.2) return false;
  if (w > h * 1.6) return false;
  if (bars && w <= h * 0.4) return true;
  return c.pixels / (w * h) < 0.7; // strokes, not a filled shape
}

/** Glyphs whose bottoms are level and gaps small join into one run, left to right. */
function runs(glyphs: Component[]): Component[] {
  const sorted = [...glyphs].sort((a, b) => a.left - b.left);
  const out: Component[] = [];
  for (const glyph of sorted) {
    const h = glyph.bottom - glyph.top + 1;
    const run = out.find(
      (r) =>
        Math.abs(r.bottom - glyph.bottom) <= h * 0.2 &&
        glyph.left - r.right <= h * 0.5 &&
        glyph.left >= r.left,
    );
    if (run) {
      run.right = Math.max(run.right, glyph.right);
      run.top = Math.min(run.top, glyph.top);
      run.bottom = Math.max(run.bottom, glyph.bottom);
      run.pixels += glyph.pixels;
    } else out.push({ ...glyph });
  }
  return out;
}
