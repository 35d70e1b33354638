import { createCanvas } from '@napi-rs/canvas';
import { pngOf } from './png.ts';

/**
 * A flyer's lines: names, sizes and prices, big and small. English, so that no other language's
 * reader is loaded for it.
 */
const LINES = {
  latin: ['Whole Milk 1 gal', 'Boneless Chicken Breast', '$2.49', 'Whole Wheat Bread 675 g', '$3.99 /lb'],
  arabic: ['حليب طازج ٢ لتر', 'پنیر لیقوان ۴۰۰ گرم', '٧.٩٩ درهم', 'چای ایرانی', '۳,۵۰ €'],
} as const;

/** Faces Debian's font packages install, Arabic first (a family without its glyphs draws boxes). */
const FACES = '"Noto Sans Arabic", "DejaVu Sans", sans-serif';

/**
 * A small page of flyer lines drawn with the system's fonts, which the engine's warm-up reads so
 * that the first real page does not pay for code run for the first time (the WebAssembly readers'
 * and ONNX Runtime's first runs were 0.5–1 s slower a page than the next ones).
 */
export function practicePage(script: keyof typeof LINES): Buffer {
  const canvas = createCanvas(900, 620);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = '#111';
  g.textAlign = script === 'arabic' ? 'right' : 'left';
  LINES[script].forEach((line, i) => {
    g.font = `bold ${i % 3 === 2 ? 72 : 34}px ${FACES}`;
    g.fillText(line, script === 'arabic' ? 870 : 30, 80 + i * 115);
  });
  return pngOf(canvas);
}
