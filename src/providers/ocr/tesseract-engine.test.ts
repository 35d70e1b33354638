import { existsSync } from 'node:fs';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { TesseractEngine } from './tesseract-engine.ts';

const ARABIC_FACE = '/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf';
const engine = new TesseractEngine();
afterAll(() => engine.close());

function page(lines: string[], face: string, rtl: boolean): Buffer {
  GlobalFonts.registerFromPath(face, 'PageFace');
  const canvas = createCanvas(1000, 80 + lines.length * 70);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = '#111';
  g.font = 'bold 36px PageFace';
  g.direction = rtl ? 'rtl' : 'ltr';
  g.textAlign = rtl ? 'right' : 'left';
  lines.forEach((line, i) => g.fillText(line, rtl ? 960 : 40, 70 + i * 70));
  return canvas.toBuffer('image/png');
}

describe.runIf(existsSync(ARABIC_FACE))('TesseractEngine on other scripts', () => {
  it('reads a Persian page that English cannot read, with the Persian and Arabic models', async () => {
    const words = await engine.recognize(
      page(['پنیر لیقوان ۴۰۰ گرم', 'چای ایرانی ۵۰۰ گرم', 'زعفران یک گرم', 'خرما مضافتی'], ARABIC_FACE, true),
    );
    const text = words.map((w) => w.text).join(' ');
    expect(text).toMatch(/زعفران/);
    expect(text).toMatch(/مضافتی|مضافتي/);
    expect(words.filter((w) => w.confidence >= 0.7).length).toBeGreaterThanOrEqual(6);
  }, 60_000);
});
