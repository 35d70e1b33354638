import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { ImageRegion } from './ocr.ts';
import { decodedPicture } from './picture.ts';

/** Below this colour distance from a line's background nothing is type (JPEG noise, shading). */
const MIN_CONTRAST = 48;

/**
 * The picture redrawn as plain print: white everywhere, and inside each text line the pixels that
 * stand out from that line's background in black. Type of any colour on any ground (white prices
 * on wooden plaques, yellow on green, red badges) becomes dark-on-light, which is what the OCR
 * engine's page layout and the ink-based price readers expect; photos outside the lines vanish.
 * Same size as the picture, so coordinates read on it are the picture's. Kept as pixels: encoding
 * a page as PNG costs more (~0.2 s) than drawing it.
 */
export async function isolateText(image: Buffer, lines: readonly ImageRegion[]): Promise<Canvas> {
  const picture = await decodedPicture(image);
  const { width, height } = picture;
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.drawImage(picture, 0, 0);
  const source = g.getImageData(0, 0, width, height).data;
  const print = g.createImageData(width, height);
  print.data.fill(255);
  for (const line of lines) inkLine(source, print.data, width, line);
  g.putImageData(print, 0, 0);
  return canvas;
}

/** Draws the line's type dark in `out`: pixels far from the background colour (Otsu's cut). */
function inkLine(rgba: Uint8ClampedArray, out: Uint8ClampedArray, width: number, line: ImageRegion): void {
  const { x, y, width: w, height: h } = line;
  if (w < 2 || h < 2) return;
  const background = borderColour(rgba, width, line);
  const distance = new Uint8Array(w * h);
  const histogram = new Uint32Array(256);
  for (let row = 0; row < h; row += 1) {
    for (let col = 0; col < w; col += 1) {
      const i = ((y + row) * width + x + col) * 4;
      const d = Math.min(
        255,
        Math.max(
          Math.abs(rgba[i]! - background[0]),
          Math.abs(rgba[i + 1]! - background[1]),
          Math.abs(rgba[i + 2]! - background[2]),
        ),
      );
      distance[row * w + col] = d;
      histogram[d]! += 1;
    }
  }
  const cut = Math.max(MIN_CONTRAST, otsu(histogram, w * h));
  // Soft edges: a ramp around the cut keeps the glyphs' anti-aliased outlines, which the OCR
  // engine's own thresholding reads better than a hard cut's ragged ones ("Pérola" as "Pérota").
  const from = cut * 0.5;
  const to = cut * 1.5;
  for (let row = 0; row < h; row += 1) {
    for (let col = 0; col < w; col += 1) {
      const d = distance[row * w + col]!;
      if (d <= from) continue;
      const i = ((y + row) * width + x + col) * 4;
      const grey = Math.round(255 * Math.max(0, (to - d) / (to - from)));
      const level = Math.min(out[i]!, grey);
      out[i] = level;
      out[i + 1] = level;
      out[i + 2] = level;
    }
  }
}

/** The median colour of the line box's outermost pixels: the ground the type is printed on. */
function borderColour(rgba: Uint8ClampedArray, width: number, line: ImageRegion): [number, number, number] {
  const channels: [number[], number[], number[]] = [[], [], []];
  const add = (px: number, py: number) => {
    const i = (py * width + px) * 4;
    for (let c = 0; c < 3; c += 1) channels[c as 0 | 1 | 2].push(rgba[i + c]!);
  };
  const right = line.x + line.width - 1;
  const bottom = line.y + line.height - 1;
  for (let px = line.x; px <= right; px += 1) {
    add(px, line.y);
    add(px, bottom);
  }
  for (let py = line.y + 1; py < bottom; py += 1) {
    add(line.x, py);
    add(right, py);
  }
  return channels.map((values) => median(values)) as [number, number, number];
}

function median(values: number[]): number {
  const sorted = values.sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? 0;
}

/** Otsu's threshold of a 256-bin histogram: the cut that best separates its two classes. */
export function otsu(histogram: Uint32Array, total: number): number {
  let sum = 0;
  for (let i = 0; i < 256; i += 1) sum += i * histogram[i]!;
  let below = 0;
  let belowSum = 0;
  let best = 0;
  let bestVariance = -1;
  for (let t = 0; t < 256; t += 1) {
    below += histogram[t]!;
    if (below === 0) continue;
    const above = total - below;
    if (above === 0) break;
    belowSum += t * histogram[t]!;
    const meanBelow = belowSum / below;
    const meanAbove = (sum - belowSum) / above;
    const variance = below * above * (meanBelow - meanAbove) ** 2;
    if (variance > bestVariance) {
      bestVariance = variance;
      best = t;
    }
  }
  return best;
}
