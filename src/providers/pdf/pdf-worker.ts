import { parentPort, workerData } from 'node:worker_threads';
import { InvalidPdfError, PdfLimitExceeded, type PdfDocument } from './pdf.ts';
import { UnpdfReader } from './unpdf-reader.ts';

/**
 * The pdf.js side of IsolatedPdfReader: one document per worker, one request at a time.
 * Requests: {id, op: 'open'|'page'|'images'|'render'|'close', ...}; answers {id, ok, value|error}.
 */
const { maxImagePixels } = workerData as { maxImagePixels: number };
const reader = new UnpdfReader({ maxImagePixels, verbosity: 1 });
let document: PdfDocument | undefined;

// pdf.js says through a warning that it skipped an image over maxImageSize: that page cannot be
// read as printed, so the flyer fails with a clear error instead of silently yielding nothing.
// Its other warnings are noise here.
let oversizedImage = false;
console.warn = (...args: unknown[]) => {
  if (String(args[0]).includes('Image exceeded maximum allowed size')) oversizedImage = true;
};

function failOnOversizedImage(number: number | undefined): void {
  if (!oversizedImage) return;
  oversizedImage = false;
  throw new PdfLimitExceeded(
    `An image on page ${number} is larger than ${maxImagePixels} pixels (FLYER_MAX_IMAGE_PIXELS); it is not read.`,
  );
}

interface WorkerRequest {
  id: number;
  op: 'open' | 'page' | 'images' | 'render' | 'close';
  bytes?: Uint8Array;
  number?: number;
  scale?: number;
}

async function answer(request: WorkerRequest): Promise<{ value: unknown; transfer: ArrayBuffer[] }> {
  switch (request.op) {
    case 'open':
      document = await reader.open(request.bytes!);
      return { value: { pageCount: document.pageCount }, transfer: [] };
    case 'page':
      return { value: await opened().page(request.number!), transfer: [] };
    case 'images': {
      const images = await opened().images(request.number!);
      const data = images.map((i) => new Uint8ClampedArray(i.data));
      return {
        value: images.map((image, n) => ({ ...image, data: data[n] })),
        transfer: data.map((d) => d.buffer as ArrayBuffer),
      };
    }
    case 'render': {
      // A drawn page's PNG (~20 MB) is handed over, not copied, when it has its memory to itself.
      const drawn = await opened().render(request.number!, request.scale!);
      const { buffer, byteOffset, byteLength } = drawn.png;
      const whole = byteOffset === 0 && byteLength === buffer.byteLength;
      return { value: drawn, transfer: whole ? [buffer as ArrayBuffer] : [] };
    }
    case 'close':
      await document?.close();
      document = undefined;
      return { value: null, transfer: [] };
  }
}

function opened(): PdfDocument {
  if (!document) throw new Error('no document is open');
  return document;
}

parentPort!.on('message', (request: WorkerRequest) => {
  answer(request)
    .then((answered) => (failOnOversizedImage(request.number), answered))
    .then(
      ({ value, transfer }) => parentPort!.postMessage({ id: request.id, ok: true, value }, transfer),
      (error: unknown) =>
        parentPort!.postMessage({
          id: request.id,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
          invalid: error instanceof InvalidPdfError,
        }),
    );
});
