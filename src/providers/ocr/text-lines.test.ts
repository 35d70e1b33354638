import { existsSync } from 'node:fs';
import { createCanvas, GlobalFonts, loadImage } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeCtc, PaddleLineRecognizer } from './line-recognizer.ts';
import { stackLines, wordsOnPage } from './line-stack.ts';
import { textPatches, TextLineDetector } from './text-detector.ts';
import { isolateText, otsu } from './text-isolation.ts';

const FACE = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const detector = new TextLineDetector();
const recognizer = new PaddleLineRecognizer();
afterAll(async () => {
  await detector.close();
  await recognizer.close();
});

/** Light type on a dark grainy green ground with a coloured "photo" between: a phone-story page. */
function storyPicture(): Buffer {
  GlobalFonts.registerFromPath(FACE, 'TextLinesFace');
  const canvas = createCanvas(600, 500);
  const g = canvas.getContext('2d');
  g.fillStyle = '#1f7a2a';
  g.fillRect(0, 0, 600, 500);
  g.fillStyle = '#c0392b';
  g.beginPath();
  g.ellipse(300, 200, 180, 70, 0.3, 0, 7);
  g.fill();
  g.fillStyle = '#6b3b1c';
  g.fillRect(60, 340, 330, 100);
  g.fillStyle = '#ffffff';
  g.font = 'bold 64px TextLinesFace';
  g.fillText('R$ 12,49', 80, 415);
  g.fillStyle = '#f4c400';
  g.font = 'bold 30px TextLinesFace';
  g.fillText('Cenoura Kg', 60, 60);
  const pixels = g.getImageData(0, 0, 600, 500);
  let seed = 3;
  for (let i = 0; i < pixels.data.length; i += 4) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    const n = (seed / 2_147_483_648 - 0.5) * 30;
    for (let c = 0; c < 3; c += 1) pixels.data[i + c] = Math.max(0, Math.min(255, pixels.data[i + c]! + n));
  }
  g.putImageData(pixels, 0, 0);
  return canvas.toBuffer('image/png');
}

const contains = (box: { x: number; y: number; width: number; height: number }, x: number, y: number) =>
  x >= box.x && x <= box.x + box.width && y >= box.y && y <= box.y + box.height;

describe.runIf(existsSync(FACE))('text lines on photo pages (PaddleOCR models through ONNX Runtime)', () => {
  it('finds the lines of light type on a coloured ground, and nothing on the photo', async () => {
    const lines = await detector.detect(storyPicture());
    expect(lines.some((l) => contains(l, 200, 400) && contains(l, 330, 380))).toBe(true); // the price
    expect(lines.some((l) => contains(l, 80, 50) && contains(l, 200, 50))).toBe(true); // the name
    expect(lines.every((l) => !contains(l, 300, 200))).toBe(true); // the photo's middle
  }, 30_000);

  it('reads a display price on a plaque as printed', async () => {
    const picture = await loadImage(storyPicture());
    const reading = await recognizer.read(picture, { x: 60, y: 340, width: 330, height: 100 });
    expect(reading.text.replace(/\s/g, '')).toMatch(/^R?\$?12[.,]49$/);
    expect(reading.confidence).toBeGreaterThan(0.8);
  }, 30_000);

  it('draws the lines as dark print on white: light type on a dark ground is inverted', async () => {
    const image = storyPicture();
    const lines = await detector.detect(image);
    const g = (await isolateText(image, lines)).getContext('2d');
    const luma = (x: number, y: number) => g.getImageData(x, y, 1, 1).data[0]!;
    expect(luma(10, 10)).toBe(255); // the ground, outside any line
    expect(luma(300, 200)).toBe(255); // the photo
    expect(luma(65, 345)).toBe(255); // the plaque's ground, inside the price's line
    // The digits' strokes: some dark pixels across the price's line.
    const row = Array.from({ length: 300 }, (_, i) => luma(80 + i, 395));
    expect(row.filter((v) => v < 100).length).toBeGreaterThan(30);
  }, 30_000);

  it('puts words read on the stack of lines back where their line is on the page', async () => {
    const lines = [
      { x: 60, y: 340, width: 330, height: 100 },
      { x: 55, y: 30, width: 180, height: 16 },
    ];
    const { placements } = stackLines(await loadImage(storyPicture()), lines);
    // The name line (first in reading order) is drawn twice its size: 32 px tall.
    expect(placements[0]).toMatchObject({ line: lines[1], scale: 2 });
    const name = placements[0]!;
    const word = { text: 'Cenoura', x: 12 + 20, y: name.top + 4, width: 100, height: 24, confidence: 0.9 };
    expect(wordsOnPage([word], placements)[0]).toMatchObject({ x: 65, y: 32, width: 50, height: 12 });
    // A mark in the gap between two lines belongs to neither.
    expect(wordsOnPage([{ ...word, y: name.top + 33, height: 2 }], placements)).toEqual([]);
  });
});

describe('detector and recogniser output', () => {
  it('text patches: a patch of likely text becomes a box grown back to the line; faint or tiny ones do not', () => {
    const width = 20;
    const height = 10;
    const probability = new Float32Array(width * height);
    for (let y = 3; y <= 6; y += 1) for (let x = 2; x <= 11; x += 1) probability[y * width + x] = 0.9;
    for (let y = 2; y <= 7; y += 1) probability[y * width + 16] = 0.35; // a faint sliver
    const boxes = textPatches(probability, width, height);
    expect(boxes).toHaveLength(1);
    const grow = (10 * 4 * 1.5) / (2 * 14);
    expect(boxes[0]).toEqual({ x: 2 - grow, y: 3 - grow, width: 10 + 2 * grow, height: 4 + 2 * grow });
  });

  it('CTC decoding merges repeats, drops blanks, keeps a character repeated across a blank, reads full-width signs as ASCII', () => {
    const alphabet = ['', '1', '2', '，', '9'];
    const steps = [1, 1, 0, 2, 3, 0, 4, 0, 4].map((best) =>
      alphabet.map((_, c) => (c === best ? 0.9 : 0.025)),
    );
    const reading = decodeCtc(Float32Array.from(steps.flat()), steps.length, alphabet.length, alphabet);
    expect(reading.text).toBe('12,99');
    expect(reading.confidence).toBeCloseTo(0.9);
  });

  it("Otsu's threshold separates two groups of values", () => {
    const histogram = new Uint32Array(256);
    histogram[20] = 100;
    histogram[200] = 50;
    const cut = otsu(histogram, 150);
    expect(cut).toBeGreaterThanOrEqual(20);
    expect(cut).toBeLessThan(200);
  });
});
