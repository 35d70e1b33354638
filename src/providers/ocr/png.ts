import { crc32, deflateSync, inflateSync } from 'node:zlib';

/**
 * PNGs here only carry pixels from one step of the reader to the next, within the process: stored,
 * not compressed. A flyer page (1080 × 1920 RGBA) is encoded in ~30 ms so against ~150 ms at
 * deflate's fastest level, and decoded in ~60 ms against ~100 ms; tesseract reads either as fast.
 * What leaves the process (a picture shown to a vision model) is compressed: `compressedPng`.
 */
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
 * a PDF can be handed to the OCR engine without an image library. Stored deflate blocks are written
 * straight into the one buffer returned: a drawn page's 20 MB were copied five times before (rows
 * with their filter bytes, deflate's output, two chunk joins): 120–160 ms, now ~75 (a microbenchmark).
 */
export function encodePng(
  width: number,
  height: number,
  channels: 1 | 3 | 4,
  pixels: Uint8Array | Uint8ClampedArray,
): Buffer {
  const stride = width * channels;
  const rawLength = (stride + 1) * height;
  const blocks = Math.max(1, Math.ceil(rawLength / STORED_BLOCK));
  const zlibLength = ZLIB_HEADER.length + rawLength + blocks * STORED_BLOCK_HEADER + 4;
  const png = Buffer.allocUnsafe(PNG_SIGNATURE.length + 25 + 12 + zlibLength + 12);
  png.set(PNG_SIGNATURE, 0);
  let at = PNG_SIGNATURE.length;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = channels === 1 ? 0 : channels === 3 ? 2 : 6;
  at = writeChunk(png, at, 'IHDR', header);
  const idat = at;
  png.writeUInt32BE(zlibLength, at);
  png.write('IDAT', at + 4, 'ascii');
  at = storedZlib(png, at + 8, rawLength, stride, height, pixels);
  png.writeUInt32BE(crc32(png.subarray(idat + 4, at)), at);
  return png.subarray(0, writeChunk(png, at + 4, 'IEND', Buffer.alloc(0)));
}

/** Bytes a stored deflate block holds at most, and its header's (final flag, length, its complement). */
const STORED_BLOCK = 0xffff;
const STORED_BLOCK_HEADER = 5;
/** zlib's header for a stream of stored blocks (deflate, 32 KB window, no dictionary, "fastest"). */
const ZLIB_HEADER = [0x78, 0x01];

/**
 * The rows, each after its filter byte (none), as a zlib stream of stored blocks written at `at`;
 * returns where it ends. The Adler-32 of the rows is summed as they are copied.
 */
function storedZlib(
  out: Buffer,
  at: number,
  rawLength: number,
  stride: number,
  height: number,
  pixels: Uint8Array | Uint8ClampedArray,
): number {
  out.set(ZLIB_HEADER, at);
  at += ZLIB_HEADER.length;
  const adler = new Adler32();
  let left = rawLength; // raw bytes not yet written
  let room = 0; // bytes the open block still takes
  const open = () => {
    room = Math.min(STORED_BLOCK, left);
    out[at] = room === left ? 1 : 0;
    out.writeUInt16LE(room, at + 1);
    out.writeUInt16LE(~room & 0xffff, at + 3);
    at += STORED_BLOCK_HEADER;
  };
  const copy = (source: Uint8Array) => {
    for (let from = 0; from < source.length;) {
      if (room === 0) open();
      const n = Math.min(room, source.length - from);
      const part = source.subarray(from, from + n);
      out.set(part, at);
      adler.add(part);
      at += n;
      from += n;
      room -= n;
      left -= n;
    }
  };
  const filter = new Uint8Array(1);
  // One kind of array for the checksum's loop to read (a canvas's pixels are clamped ones).
  const bytes = new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  for (let row = 0; row < height; row += 1) {
    copy(filter);
    copy(bytes.subarray(row * stride, (row + 1) * stride));
  }
  if (rawLength === 0) open();
  out.writeUInt32BE(adler.value, at);
  return at + 4;
}

/** zlib's checksum (RFC 1950), summed a part at a time. */
class Adler32 {
  #a = 1;
  #b = 0;

  add(bytes: Uint8Array): void {
    let a = this.#a;
    let b = this.#b;
    // 5552 bytes is the most that can be summed before the sums must be reduced (zlib's NMAX).
    for (let from = 0; from < bytes.length; from += 5552) {
      const end = Math.min(bytes.length, from + 5552);
      for (let i = from; i < end; i += 1) {
        a += bytes[i]!;
        b += a;
      }
      a %= 65521;
      b %= 65521;
    }
    this.#a = a;
    this.#b = b;
  }

  get value(): number {
    return ((this.#b << 16) | this.#a) >>> 0;
  }
}

function writeChunk(out: Buffer, at: number, type: string, data: Buffer): number {
  out.writeUInt32BE(data.length, at);
  out.write(type, at + 4, 'ascii');
  out.set(data, at + 8);
  out.writeUInt32BE(crc32(out.subarray(at + 4, at + 8 + data.length)), at + 8 + data.length);
  return at + 12 + data.length;
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
  const out = Buffer.allocUnsafe(12 + data.length);
  writeChunk(out, 0, type, data);
  return out;
}
