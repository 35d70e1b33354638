import { createCanvas, type Image } from '@napi-rs/canvas';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import type { ImageRegion } from './ocr.ts';
import { paddleModelPath } from './line-recognizer.ts';

/** The classifier looks at a line scaled to this height, at most this wide (PaddleOCR's 3 × 48 × 192). */
const HEIGHT = 48;
const WIDTH = 192;
/** Lines looked at, at most: the page's longest (a few dozen say its direction as well as all). */
const MAX_LINES = 32;
/** A line is a line of type lying down when it is this many times as wide as it is tall or more. */
const LYING = 1.5;
/** A line's direction counts when the classifier is this sure of it. */
const SURE = 0.9;

export interface LineDirections {
  /** Lines the classifier is sure stand upright… */
  upright: number;
  /** …and sure stand upside down. */
  upsideDown: number;
}

/**
 * PaddleOCR's text direction classifier (`ch_ppocr_mobile_v2.0_cls`, shipped in the npm package;
 * ONNX Runtime, one thread): whether each of a page's longest detected lines of type stands upright
 * or upside down. It reads the type's shapes, line by line, where tesseract's orientation detection
 * weighs the whole page's and is unsure of, or wrong about, pages of photos with little type.
 */
export class LineDirectionClassifier {
  #session: Promise<InferenceSession> | undefined;

  async directions(picture: Image, lines: readonly ImageRegion[]): Promise<LineDirections> {
    const lying = lines
      .filter((l) => l.width >= l.height * LYING && l.height >= 8)
      .sort((a, b) => b.width * b.height - a.width * a.height)
      .slice(0, MAX_LINES);
    const counts = { upright: 0, upsideDown: 0 };
    if (lying.length === 0) return counts;
    const session = await this.#loaded();
    const input = new Float32Array(lying.length * 3 * HEIGHT * WIDTH);
    lying.forEach((line, n) => drawLine(picture, line, input, n));
    const output = await session.run({
      [session.inputNames[0]!]: new Tensor('float32', input, [lying.length, 3, HEIGHT, WIDTH]),
    });
    const scores = output[session.outputNames[0]!]!.data as Float32Array;
    for (let n = 0; n < lying.length; n += 1) {
      if (scores[n * 2]! >= SURE) counts.upright += 1;
      else if (scores[n * 2 + 1]! >= SURE) counts.upsideDown += 1;
    }
    return counts;
  }

  async close(): Promise<void> {
    const session = this.#session;
    this.#session = undefined;
    if (session) await (await session).release();
  }

  #loaded(): Promise<InferenceSession> {
    this.#session ??= InferenceSession.create(paddleModelPath('ch_ppocr_mobile_v2.0_cls_infer.onnx'), {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      enableCpuMemArena: false,
    });
    return this.#session;
  }
}

/**
 * The line scaled to the classifier's height (its width kept in proportion, at most WIDTH), as
 * PaddleOCR feeds it: BGR planes from -1 to 1, zeros to the right of a short line.
 */
function drawLine(picture: Image, line: ImageRegion, input: Float32Array, n: number): void {
  const width = Math.max(1, Math.min(WIDTH, Math.ceil((line.width * HEIGHT) / Math.max(1, line.height))));
  const canvas = createCanvas(width, HEIGHT);
  canvas.getContext('2d').drawImage(picture, line.x, line.y, line.width, line.height, 0, 0, width, HEIGHT);
  const rgba = canvas.getContext('2d').getImageData(0, 0, width, HEIGHT).data;
  const plane = HEIGHT * WIDTH;
  const offset = n * 3 * plane;
  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 4;
      for (let c = 0; c < 3; c += 1) input[offset + c * plane + y * WIDTH + x] = rgba[i + 2 - c]! / 127.5 - 1;
    }
  }
}
