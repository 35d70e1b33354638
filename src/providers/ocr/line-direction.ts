import { createCanvas, type Image } from '@napi-rs/canvas';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import type { ImageRegion } from './ocr.ts';
import { paddleModelPath } from './line-recognizer.ts';

/** The classifier looks at a line scaled to this height, at most this wide (PaddleOCR's 3 × 48 × 192). */
const HEIGHT = 48;
const WIDTH = 192;
/** Lines looked at, at most: the page's longest (a few dozen say its direction as well as all). */
const MAX_LINES = 32;
/** A line of type lies down when it is this many times as wide as it is tall, stands on end when as tall as wide. */
const LONG = 1.5;
/** A line's direction counts when the classifier is this sure of it. */
const SURE = 0.9;

/** Quarter turns clockwise, in degrees. */
export type Turn = 0 | 90 | 180 | 270;

/** Lines the classifier is sure would stand upright were the page turned so far clockwise. */
export type LineTurns = Record<Turn, number>;

/**
 * PaddleOCR's text direction classifier (`ch_ppocr_mobile_v2.0_cls`, shipped in the npm package;
 * ONNX Runtime, one thread): how far each of a page's longest detected lines of type is turned from
 * upright. It tells a line upright from one upside down; a line standing on end is shown to it laid
 * down a quarter turn back, so the page's quarter turns are told too. It reads the type's shapes line
 * by line, where tesseract's orientation detection weighs the whole page's and is unsure of, or
 * wrong about, pages of photos with little type.
 */
export class LineDirectionClassifier {
  #session: Promise<InferenceSession> | undefined;

  async turns(picture: Image, lines: readonly ImageRegion[]): Promise<LineTurns> {
    const long = lines
      .filter((l) => Math.min(l.width, l.height) >= 8)
      .filter((l) => l.width >= l.height * LONG || l.height >= l.width * LONG)
      .sort((a, b) => b.width * b.height - a.width * a.height)
      .slice(0, MAX_LINES);
    const counts: LineTurns = { 0: 0, 90: 0, 180: 0, 270: 0 };
    if (long.length === 0) return counts;
    const session = await this.#loaded();
    const input = new Float32Array(long.length * 3 * HEIGHT * WIDTH);
    long.forEach((line, n) => drawLine(picture, line, input, n));
    const output = await session.run({
      [session.inputNames[0]!]: new Tensor('float32', input, [long.length, 3, HEIGHT, WIDTH]),
    });
    const scores = output[session.outputNames[0]!]!.data as Float32Array;
    long.forEach((line, n) => {
      const standing = line.height > line.width;
      // A standing line laid down by a quarter turn back: upright so, the page stands a quarter
      // turned clockwise and is set upright by three more.
      if (scores[n * 2]! >= SURE) counts[standing ? 270 : 0] += 1;
      else if (scores[n * 2 + 1]! >= SURE) counts[standing ? 90 : 180] += 1;
    });
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
 * The line scaled to the classifier's height (its length kept in proportion, at most WIDTH), as
 * PaddleOCR feeds it: BGR planes from -1 to 1, zeros past the end of a short line. A line standing
 * on end is laid down by a quarter turn counter-clockwise.
 */
function drawLine(picture: Image, line: ImageRegion, input: Float32Array, n: number): void {
  const standing = line.height > line.width;
  const [length, across] = standing ? [line.height, line.width] : [line.width, line.height];
  const width = Math.max(1, Math.min(WIDTH, Math.ceil((length * HEIGHT) / Math.max(1, across))));
  const canvas = createCanvas(width, HEIGHT);
  const g = canvas.getContext('2d');
  if (standing) {
    g.translate(0, HEIGHT);
    g.rotate(-Math.PI / 2);
    g.drawImage(picture, line.x, line.y, line.width, line.height, 0, 0, HEIGHT, width);
  } else {
    g.drawImage(picture, line.x, line.y, line.width, line.height, 0, 0, width, HEIGHT);
  }
  const rgba = g.getImageData(0, 0, width, HEIGHT).data;
  const plane = HEIGHT * WIDTH;
  const offset = n * 3 * plane;
  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 4;
      for (let c = 0; c < 3; c += 1) input[offset + c * plane + y * WIDTH + x] = rgba[i + 2 - c]! / 127.5 - 1;
    }
  }
}
