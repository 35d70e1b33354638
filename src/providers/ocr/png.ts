import { crc32, deflateSync, inflateSync } from 'node:zlib';

/**
 * PNGs here only carry pixels from one step of the reader to the next, within the process: stored,
 * not compressed. A flyer page (1080 × 1920 RGBA) is encoded in ~30 ms so against ~150 ms at
 * deflate's fastest level, and decoded in ~60 ms against ~100 ms; tesseract reads either as fast.
 * What leaves the process (a picture shown to a vision model) is compressed: `compressedPng`.
 */
const HANDOFF_LEVEL = 0;
/** zlib's default: a stored flyer page of ~8 MB becomes ~2 MB, within the models' per-picture limits. */
const COMPRESSED_LEVEL = 6;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The pixels of a picture that holds them as RGBA (a canvas), as a PNG. */
export function pngOf(picture: {
  width: number;
  height: number;
  getContext(type: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
  };
}): Buffer {
  const { width, height } = picture;
  return encodePng(width, height, 4, picture.getContext('2d').getImageData(0, 0, width, height).data);
}

/**
 * Encodes raw pixels (1 = grey, 3 = RGB, 4 = RGBA channels) as a PNG, so that pixels decoded from
 * a PDF can be handed to the OCR engine without an image library.
 */
export function encodePng(
  width: number,
  height: number,
  channels: 1 | 3 | 4,
  pixels: Uint8Array | Uint8ClampedArray,
): Buffer {
  const colourType = channels === 1 ? 0 : channels === 3 ? 2 : 6;
  const stride = width * channels;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let row = 0; row < height; row += 1) {
    raw[row * (stride + 1)] = 0; // filter: none
    raw.set(pixels.subarray(row * stride, (row + 1) * stride), row * (stride + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = colourType;
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: HANDOFF_LEVEL })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The same PNG with its pixel data compressed (`COMPRESSED_LEVEL`); its other chunks as they were.
 * A buffer that is not a PNG's chunks is returned as it is.
 */
export function compressedPng(png: Buffer): Buffer {
  if (!png.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) return png;
  const chunks: Array<{ type: string; data: Buffer }> = [];
  for (let at = PNG_SIGNATURE.length; at + 12 <= png.length;) {
    const length = png.readUInt32BE(at);
    if (at + 12 + length > png.length) return png;
    chunks.push({ type: png.toString('ascii', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  const idat = chunks.filter((c) => c.type === 'IDAT');
  if (idat.length === 0) return png;
  const pixels = inflateSync(Buffer.concat(idat.map((c) => c.data)));
  const out: Buffer[] = [PNG_SIGNATURE];
  for (const c of chunks) {
    if (c.type !== 'IDAT') out.push(chunk(c.type, c.data));
    else if (c === idat[0]) out.push(chunk('IDAT', deflateSync(pixels, { level: COMPRESSED_LEVEL })));
  }
  return Buffer.concat(out);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, checksum]);
}
