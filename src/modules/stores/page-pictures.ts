import { notFound, unreadableFlyer } from '../../platform/errors.ts';
import { isUuid } from '../../platform/http/ids.ts';
import { InvalidPdfError, type PdfReader } from '../../providers/pdf/pdf.ts';
import { FileMissingError, type FileStorage } from '../../providers/storage/storage.ts';
import type { StoresRepository } from './repository.ts';

/** A flyer page as a picture for the review screen; `scale` turns PDF points into its pixels. */
export interface PagePicture {
  png: Buffer;
  scale: number;
}

/** Width the review screen draws pages at: sharp on a laptop, small enough to load fast. */
const TARGET_WIDTH_PX = 1200;
/** A page's picture is never drawn bigger than this, whatever its size in points. */
const MAX_SCALE = 3;

/**
 * Pages of uploaded flyers drawn on the server (the browser never receives the raw PDF, which may
 * be hostile) and cached beside the upload, so each page is drawn once.
 */
export class FlyerPagePictures {
  readonly #repo: StoresRepository;
  readonly #storage: FileStorage;
  readonly #pdf: PdfReader;

  constructor(repo: StoresRepository, storage: FileStorage, pdf: PdfReader) {
    this.#repo = repo;
    this.#storage = storage;
    this.#pdf = pdf;
  }

  async picture(jobId: string, page: number): Promise<PagePicture> {
    if (!isUuid(jobId) || !Number.isInteger(page) || page < 1) throw notFound('Page');
    const job = await this.#repo.findJob(jobId);
    if (!job) throw notFound('Job');
    const key = `${job.file_key}.pages/${page}`;
    const cached = await this.#cached(key);
    if (cached) return cached;
    const drawn = await this.#draw(job.file_key, page);
    await this.#storage.put(`${key}.png`, drawn.png);
    await this.#storage.put(`${key}.json`, Buffer.from(JSON.stringify({ scale: drawn.scale })));
    return drawn;
  }

  async #cached(key: string): Promise<PagePicture | undefined> {
    try {
      const meta = JSON.parse((await this.#storage.get(`${key}.json`)).toString()) as { scale: number };
      return { png: await this.#storage.get(`${key}.png`), scale: meta.scale };
    } catch {
      return undefined; // not drawn yet, or half written: draw again
    }
  }

  async #draw(fileKey: string, page: number): Promise<PagePicture> {
    let bytes: Buffer;
    try {
      bytes = await this.#storage.get(fileKey);
    } catch (error) {
      if (error instanceof FileMissingError) throw notFound('Flyer file');
      throw error;
    }
    let doc;
    try {
      doc = await this.#pdf.open(bytes);
    } catch (error) {
      if (error instanceof InvalidPdfError)
        throw unreadableFlyer(`The flyer cannot be drawn: ${error.message}`);
      throw error;
    }
    try {
      if (page > doc.pageCount) throw notFound('Page');
      const { width } = await doc.page(page);
      const scale = Math.min(MAX_SCALE, TARGET_WIDTH_PX / Math.max(1, width));
      const rendered = await doc.render(page, scale);
      return { png: rendered.png, scale: rendered.width / Math.max(1, width) };
    } catch (error) {
      if (error instanceof InvalidPdfError)
        throw unreadableFlyer(`The page cannot be drawn: ${error.message}`);
      throw error;
    } finally {
      await doc.close();
    }
  }
}
