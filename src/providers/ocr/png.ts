import { crc32, deflateSync } from 'node:zlib';

/**
 * PNGs here only carry pixels from one step of the reader to the next: the fastest compression.
 * A drawn flyer page (1620 × 2880) takes ~50 ms so, ~0.2 s at the canvas's default; the file is
 * half again as large and decodes as fast.
 */
const LEVEL = 1;

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
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: LEVEL })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, checksum]);
}
