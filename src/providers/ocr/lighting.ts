import { createCanvas, type Image } from '@napi-rs/canvas';
import { decodedPicture, scaledRgba } from './picture.ts';
import { pngOf } from './png.ts';

/** The page is looked at this wide for its light: a cell of it is a third of an inch or so (~10 ms). */
const LIGHT_WIDTH = 400;
/** Cells the light is sampled in, pixels a side of the picture looked at. */
const CELL = 16;
/**
 * A cell's light is its brightest value but for specks, value as a colour's brightest channel: white
 * paper and printed yellow or orange are as bright as the light falling on them, so a colourful
 * flyer's cells show it as well as a white one's.
 */
const CELL_PERCENTILE = 0.95;
/** Cells this much darker than the light fitted through them hold no paper (photos, dark panels). */
const BELOW_LIGHT = 0.88;
/**
 * Cells darker than this hold no paper whatever the fit (black panels, night photos): a fit through
 * a page half black fell below zero there and kept them. Paper in a lamp's shadow on the shaded
 * real flyers stays above 90.
 */
const MIN_LIGHT = 48;
/** Fits of the light, each over the cells the one before found lit. */
const FITS = 4;
/**
 * The light is made even when it falls to this share of the page's brightest or lower: pages lit
 * evenly fit 0.84–1 (real, generated and rasterised flyers), the real flyers rasterised with their
 * far corner 0.55 darker 0.38–0.51…
 */
const UNEVEN = 0.65;
/** …and the cells it was fitted through cover this share of the page or more (else it is not known)… */
const MIN_LIT_CELLS = 0.25;
/**
 * …and no more than this share of the cells is brighter than the light fitted there (by
 * OVER_LIGHT): nothing on paper is brighter than the light falling on it, but a design's vignette
 * (a Canva page dark at its edges, white cards on it: 1.9 % of its cells) is. Shaded pages: 0–0.8 %.
 */
const MAX_OVER_LIGHT = 0.01;
const OVER_LIGHT = 1.15;

/** Light over the page: a quadratic surface in its width and height, each from -0.5 to 0.5. */
type Light = readonly number[];

/**
 * The picture with its light made even when it falls off across the page (a flyer photographed
 * under a lamp, scanned with the lid up, its middle fold lifted from the glass): each pixel brought
 * up to the light of the page's brightest part. Tesseract and the ink tests cut ink from paper by
 * one grey level for the whole page, and the shaded part's paper fell below it. The same buffer when
 * the light is even or cannot be told.
 */
export async function evenlyLit(image: Buffer): Promise<Buffer> {
  const picture = await decodedPicture(image);
  const light = unevenLight(picture);
  if (!light) return image;
  const canvas = createCanvas(picture.width, picture.height);
  const g = canvas.getContext('2d');
  g.drawImage(picture, 0, 0);
  const pixels = g.getImageData(0, 0, picture.width, picture.height);
  brighten(pixels.data, picture.width, picture.height, light);
  g.putImageData(pixels, 0, 0);
  return pngOf(canvas);
}

/** The page's light when it is uneven (see UNEVEN), with the brightest it reaches; else undefined. */
export function unevenLight(picture: Image): { light: Light; brightest: number } | undefined {
  const { width, height, rgba } = scaledRgba(picture, Math.min(1, LIGHT_WIDTH / picture.width));
  const all = cellLights(rgba, width, height);
  const cells = all.filter((c) => c.value >= MIN_LIGHT);
  if (cells.length === 0) return undefined;
  let lit = cells;
  let light: Light | undefined;
  for (let fit = 0; fit < FITS; fit += 1) {
    light = fitted(lit);
    if (!light) return undefined;
    const surface = light;
    lit = cells.filter((c) => c.value >= BELOW_LIGHT * lightAt(surface, c.u, c.v));
    if (lit.length < MIN_LIT_CELLS * all.length) return undefined;
  }
  const surface = light!;
  const values = cells.map((c) => lightAt(surface, c.u, c.v));
  // Folded, not spread: a hostile picture's cells are more than a call takes arguments.
  const brightest = Math.min(
    255,
    values.reduce((a, b) => Math.max(a, b), 0),
  );
  const darkest = Math.max(
    1,
    values.reduce((a, b) => Math.min(a, b), 255),
  );
  if (darkest >= UNEVEN * brightest) return undefined;
  const over = cells.filter((c, i) => c.value > OVER_LIGHT * values[i]!).length;
  return over <= MAX_OVER_LIGHT * all.length ? { light: surface, brightest } : undefined;
}

interface CellLight {
  u: number;
  v: number;
  value: number;
}

function cellLights(rgba: Uint8ClampedArray, width: number, height: number): CellLight[] {
  const cells: CellLight[] = [];
  const histogram = new Uint32Array(256);
  for (let top = 0; top + CELL <= height; top += CELL) {
    for (let left = 0; left + CELL <= width; left += CELL) {
      histogram.fill(0);
      for (let y = top; y < top + CELL; y += 1) {
        for (let x = left, i = (y * width + left) * 4; x < left + CELL; x += 1, i += 4)
          histogram[Math.max(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!)]! += 1;
      }
      let below = CELL * CELL * CELL_PERCENTILE;
      let value = 0;
      while (value < 255 && below > histogram[value]!) below -= histogram[value++]!;
      cells.push({ u: (left + CELL / 2) / width - 0.5, v: (top + CELL / 2) / height - 0.5, value });
    }
  }
  return cells;
}

function terms(u: number, v: number): number[] {
  return [1, u, v, u * u, u * v, v * v];
}

function lightAt(light: Light, u: number, v: number): number {
  return terms(u, v).reduce((sum, term, i) => sum + term * light[i]!, 0);
}

/** The least-squares surface through the cells' light; undefined when they do not fix one. */
function fitted(cells: readonly CellLight[]): Light | undefined {
  const n = 6;
  const a = Array.from({ length: n }, () => new Array<number>(n + 1).fill(0));
  for (const cell of cells) {
    const t = terms(cell.u, cell.v);
    for (let i = 0; i < n; i += 1) {
      for (let j = 0; j < n; j += 1) a[i]![j]! += t[i]! * t[j]!;
      a[i]![n]! += t[i]! * cell.value;
    }
  }
  // Gaussian elimination with partial pivoting.
  for (let col = 0; col < n; col += 1) {
    let pivot = col;
    for (let row = col + 1; row < n; row += 1)
      if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    if (Math.abs(a[pivot]![col]!) < 1e-9) return undefined;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let row = 0; row < n; row += 1) {
      if (row === col) continue;
      const factor = a[row]![col]! / a[col]![col]!;
      for (let k = col; k <= n; k += 1) a[row]![k]! -= factor * a[col]![k]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}

/** Each pixel's channels scaled by the brightest light over the light falling on it (never darker). */
function brighten(
  rgba: Uint8ClampedArray,
  width: number,
  height: number,
  { light, brightest }: { light: Light; brightest: number },
): void {
  const [c0, c1, c2, c3, c4, c5] = light as [number, number, number, number, number, number];
  for (let y = 0; y < height; y += 1) {
    const v = (y + 0.5) / height - 0.5;
    // The surface along the row: a + b u + c u².
    const a = c0 + c2 * v + c5 * v * v;
    const b = c1 + c4 * v;
    for (let x = 0, i = y * width * 4; x < width; x += 1, i += 4) {
      const u = (x + 0.5) / width - 0.5;
      const falling = Math.max(1, a + b * u + c3 * u * u);
      const gain = Math.max(1, brightest / falling);
      rgba[i] = rgba[i]! * gain;
      rgba[i + 1] = rgba[i + 1]! * gain;
      rgba[i + 2] = rgba[i + 2]! * gain;
    }
  }
}
