import { Worker } from 'node:worker_threads';
import {
  InvalidPdfError,
  PdfLimitExceeded,
  type PdfDocument,
  type PdfPage,
  type PdfReader,
  type RasterImage,
  type RenderedPage,
} from './pdf.ts';

/** What one flyer may cost to read. */
export interface PdfLimits {
  maxPages: number;
  /** Largest image (width × height) ever decoded or drawn. */
  maxImagePixels: number;
  /** Deadline of each step (opening, one page's text, images or drawing). */
  stepTimeoutMs: number;
  /** Memory the reading may add to the process before it is stopped. */
  memoryMb: number;
}

export const DEFAULT_PDF_LIMITS: PdfLimits = {
  maxPages: 100,
  maxImagePixels: 50_000_000,
  stepTimeoutMs: 60_000,
  memoryMb: 1024,
};

export { PdfLimitExceeded };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * Reads PDFs in a worker thread, so a hostile file (a decompression bomb, a huge image, endless
 * pages, a parser loop) costs a bounded step and never the service: each step has a deadline, the
 * worker's heap is capped, the process's memory is watched while a step runs, and on any breach
 * the worker is terminated and the flyer fails with a clear message.
 */
export class IsolatedPdfReader implements PdfReader {
  readonly #limits: PdfLimits;

  constructor(limits: PdfLimits = DEFAULT_PDF_LIMITS) {
    this.#limits = limits;
  }

  async open(bytes: Uint8Array): Promise<PdfDocument> {
    const session = new WorkerSession(this.#limits);
    try {
      const copy = new Uint8Array(bytes);
      const { pageCount } = (await session.call({ op: 'open', bytes: copy }, [
        copy.buffer as ArrayBuffer,
      ])) as {
        pageCount: number;
      };
      if (pageCount > this.#limits.maxPages)
        throw new PdfLimitExceeded(
          `The flyer has ${pageCount} pages; at most ${this.#limits.maxPages} are read (FLYER_MAX_PAGES).`,
        );
      return {
        pageCount,
        page: (number) => session.call({ op: 'page', number }) as Promise<PdfPage>,
        images: (number) => session.call({ op: 'images', number }) as Promise<RasterImage[]>,
        render: (number, scale) => session.call({ op: 'render', number, scale }) as Promise<RenderedPage>,
        close: () => session.close(),
      };
    } catch (error) {
      await session.close();
      throw error;
    }
  }
}

class WorkerSession {
  readonly #worker: Worker;
  readonly #limits: PdfLimits;
  readonly #pending = new Map<number, Pending>();
  #next = 0;
  #failure: Error | undefined;

  constructor(limits: PdfLimits) {
    this.#limits = limits;
    this.#worker = new Worker(new URL('./pdf-worker.ts', import.meta.url), {
      workerData: { maxImagePixels: limits.maxImagePixels },
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: 64 },
    });
    this.#worker.unref();
    this.#worker.on(
      'message',
      (message: { id: number; ok: boolean; value?: unknown; error?: string; invalid?: boolean }) => {
        const pending = this.#pending.get(message.id);
        if (!pending) return;
        this.#pending.delete(message.id);
        if (message.ok) pending.resolve(message.value);
        else pending.reject(message.invalid ? new InvalidPdfError(message.error) : new Error(message.error));
      },
    );
    this.#worker.on('error', (error: Error & { code?: string }) =>
      this.#fail(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new PdfLimitExceeded(
              `Reading the flyer needed more than ${limits.memoryMb} MB (FLYER_MEMORY_MB).`,
            )
          : new InvalidPdfError(`The flyer could not be read: ${error.message}`),
      ),
    );
    this.#worker.on('exit', () => this.#fail(new InvalidPdfError('The flyer reader stopped.')));
  }

  call(request: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = (this.#next += 1);
    const baseline = process.memoryUsage.rss();
    const budget = this.#limits.memoryMb * 1024 * 1024;
    return new Promise((resolve, reject) => {
      const settle = () => {
        clearTimeout(deadline);
        clearInterval(watch);
      };
      this.#pending.set(id, {
        resolve: (value) => (settle(), resolve(value)),
        reject: (error) => (settle(), reject(error)),
      });
      const deadline = setTimeout(
        () =>
          this.#fail(
            new PdfLimitExceeded(
              `A step of reading the flyer took over ${this.#limits.stepTimeoutMs} ms (FLYER_PAGE_TIMEOUT_MS).`,
            ),
          ),
        this.#limits.stepTimeoutMs,
      );
      // Decoded streams and images live outside the worker's heap: watch the whole process.
      const watch = setInterval(() => {
        if (process.memoryUsage.rss() - baseline > budget)
          this.#fail(
            new PdfLimitExceeded(
              `Reading the flyer needed more than ${this.#limits.memoryMb} MB (FLYER_MEMORY_MB).`,
            ),
          );
      }, 50);
      this.#worker.postMessage({ id, ...request }, transfer);
    });
  }

  async close(): Promise<void> {
    if (!this.#failure) {
      await this.call({ op: 'close' }).catch(() => undefined);
      this.#failure = new InvalidPdfError('The flyer is closed.');
    }
    await this.#worker.terminate();
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const pending of this.#pending.values()) pending.reject(this.#failure);
    this.#pending.clear();
    void this.#worker.terminate();
  }
}
