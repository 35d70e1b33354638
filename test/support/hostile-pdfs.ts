import { createDeflate } from 'node:zlib';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  PDFName,
  popGraphicsState,
  pushGraphicsState,
} from 'pdf-lib';

/** PDFs built to hurt a reader: each one small on the wire. */

export async function manyPagesPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([100, 100]);
  return doc.save({ useObjectStreams: true });
}

/** Deflates `bytes` zero bytes without ever holding them: a small stream that inflates hugely. */
async function deflatedZeros(bytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const chunk = Buffer.alloc(1 << 20, 0x20);
  for (let written = 0; written < bytes; written += chunk.length) {
    if (!deflate.write(chunk)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return Buffer.concat(chunks);
}

/** A one-page PDF whose raw objects are given; builds the xref table by hand. */
function rawPdf(objects: (string | Buffer)[]): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const part = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      Buffer.from(body),
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(part);
    length += part.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(xref));
  return new Uint8Array(Buffer.concat(parts));
}

function stream(dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  ]);
}

/** A page showing an image declared as `width` × `height` pixels (the data inflates to that size). */
export async function hugeImagePdf(
  width: number,
  height: number,
  inflateBytes = 1 << 20,
): Promise<Uint8Array> {
  const pixels = await deflatedZeros(inflateBytes);
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>',
    stream('', Buffer.from('q 600 0 0 800 0 0 cm /Im1 Do Q')),
    stream(
      `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
      pixels,
    ),
  ]);
}

/** A page whose content stream inflates to `inflateBytes` of blanks: a decompression bomb. */
export async function contentBombPdf(inflateBytes: number): Promise<Uint8Array> {
  const content = await deflatedZeros(inflateBytes);
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Contents 4 0 R >>',
    stream('/Filter /FlateDecode', content),
  ]);
}

/**
 * A page painting `count` stencil masks of `width` × `height`, each within the image-size limit and
 * deflating to a few kilobytes: unpacked to grey, they would take `count` × width × height bytes.
 */
export async function manyMasksPdf(count: number, width: number, height: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([600, 800]);
  const bits = new Uint8Array(Math.ceil(width / 8) * height).fill(0xaa);
  const mask = {
    Type: 'XObject',
    Subtype: 'Image',
    Width: width,
    Height: height,
    BitsPerComponent: 1,
    ImageMask: true,
  };
  for (let i = 0; i < count; i += 1) {
    // Each an XObject of its own: pdf.js decodes every one.
    page.node.setXObject(PDFName.of(`M${i}`), pdf.context.register(pdf.context.flateStream(bits, mask)));
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(600, 0, 0, 800, 0, 0),
      drawObject(`M${i}`),
      popGraphicsState(),
    );
  }
  return pdf.save();
}
