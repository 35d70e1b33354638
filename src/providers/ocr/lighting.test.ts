import { existsSync } from 'node:fs';
import { createCanvas, GlobalFonts, loadImage, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { evenlyLit } from './lighting.ts';
import { TesseractEngine } from './tesseract-engine.ts';

const FACE = '/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf';
const [WIDTH, HEIGHT] = [1200, 1600];

/** A flyer page: white paper, rows of small dark marks (body type), a red panel, a photo, a big price. */
function page(draw?: (g: SKRSContext2D) => void): { canvas: Canvas; g: SKRSContext2D } {
  const canvas = createCanvas(WIDTH, HEIGHT);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, WIDTH, HEIGHT);
  g.fillStyle = '#222';
  for (let y = 500; y < HEIGHT - 60; y += 40)
    for (let x = 60; x < WIDTH - 100; x += 90) g.fillRect(x, y, 60 + ((x * y) % 23), 14);
  g.fillStyle = '#d22';
  g.fillRect(700, 60, 440, 300);
  g.fillStyle = '#3a5';
  g.beginPath();
  g.ellipse(900, 1200, 160, 110, 0, 0, Math.PI * 2);
  g.fill();
  if (existsSync(FACE)) {
    GlobalFonts.registerFromPath(FACE, 'PriceFace');
    g.fillStyle = '#c00';
    g.font = 'bold 150px PriceFace';
    g.fillText('349', 80, 300);
  }
  draw?.(g);
  return { canvas, g };
}

/** Light falling off towards the top-left corner, that corner `shade` darker (a lamp at the far one). */
function shaded(canvas: Canvas, shade: number): Buffer {
  const g = canvas.getContext('2d');
  const light = g.createRadialGradient(WIDTH, HEIGHT, 0, WIDTH, HEIGHT, Math.hypot(WIDTH, HEIGHT));
  const grey = (darker: number) => `rgb(${[0, 0, 0].map(() => Math.round(255 * (1 - darker))).join(',')})`;
  light.addColorStop(0, grey(0));
  light.addColorStop(0.5, grey(shade * 0.35));
  light.addColorStop(1, grey(shade));
  g.globalCompositeOperation = 'multiply';
  g.fillStyle = light;
  g.fillRect(0, 0, WIDTH, HEIGHT);
  return canvas.toBuffer('image/png');
}

async function paperAt(png: Buffer, x: number, y: number): Promise<number> {
  const picture = await loadImage(png);
  const canvas = createCanvas(picture.width, picture.height);
  canvas.getContext('2d').drawImage(picture, 0, 0);
  return canvas.getContext('2d').getImageData(x, y, 1, 1).data[0]!;
}

describe('pictures lit unevenly', () => {
  const engine = new TesseractEngine();
  afterAll(() => engine.close());

  it('leaves an evenly lit page as it is, its coloured panel and photo included', async () => {
    const png = page().canvas.toBuffer('image/png');
    // Compared as the same buffer: a failing comparison of two pictures' bytes prints for minutes.
    expect((await evenlyLit(png)) === png).toBe(true);
  });

  it('leaves a page with a black panel over half of it as it is (no light is fitted through black)', async () => {
    const { canvas } = page((g) => {
      g.fillStyle = '#000';
      g.fillRect(0, HEIGHT / 2, WIDTH, HEIGHT / 2);
    });
    const png = canvas.toBuffer('image/png');
    // Compared as the same buffer: a failing comparison of two pictures' bytes prints for minutes.
    expect((await evenlyLit(png)) === png).toBe(true);
  });

  it("brings a shaded page's paper up to the light of its brightest part", async () => {
    const png = shaded(page().canvas, 0.6);
    expect(await paperAt(png, 30, 30)).toBeLessThan(120);
    const lit = await evenlyLit(png);
    expect(lit === png).toBe(false);
    expect(await paperAt(lit, 30, 30)).toBeGreaterThan(215);
    expect(await paperAt(lit, WIDTH - 30, HEIGHT - 30)).toBeGreaterThan(240);
  });

  it("leaves a design's vignette alone: dark edges with white cards on them are not a shadow", async () => {
    const { canvas, g } = page();
    const vignette = g.createRadialGradient(WIDTH / 2, HEIGHT / 2, 100, WIDTH / 2, HEIGHT / 2, HEIGHT / 1.2);
    vignette.addColorStop(0, '#4c4');
    vignette.addColorStop(1, '#031');
    g.fillStyle = vignette;
    g.fillRect(0, 0, WIDTH, HEIGHT);
    g.fillStyle = '#fff';
    for (const [x, y] of [
      [40, 40],
      [WIDTH - 340, 40],
      [40, HEIGHT - 240],
      [WIDTH - 340, HEIGHT - 240],
      [WIDTH / 2 - 150, HEIGHT / 2 - 100],
    ] as const)
      g.fillRect(x, y, 300, 200);
    const png = canvas.toBuffer('image/png');
    // Compared as the same buffer: a failing comparison of two pictures' bytes prints for minutes.
    expect((await evenlyLit(png)) === png).toBe(true);
  });

  it.runIf(existsSync(FACE))(
    'finds a big price in the shade from its ink once the page is evenly lit',
    async () => {
      // The ink tests cut at one grey level: in the shade the paper itself was ink, one run with the price.
      const png = shaded(page().canvas, 0.6);
      const inShade = await engine.findTallGlyphRuns(png, 80);
      expect(inShade.some((run) => run.x > 60 && run.x < 100 && run.width < 400)).toBe(false);
      const runs = await engine.findTallGlyphRuns(await evenlyLit(png), 80);
      expect(
        runs.filter((run) => run.x > 60 && run.x < 100 && run.width > 200 && run.width < 400),
      ).toHaveLength(1);
    },
  );
});
