import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ImageGenerationError, type OpenAiImagesClient } from '../providers/images/openai-images.ts';
import type { Job, JobStore } from './job-store.ts';

/**
 * Runs jobs with bounded concurrency: pending → running → done (images saved under
 * <dataDir>/images, served at /images/<file>) or failed with an error message.
 */
export class ImageWorker {
  readonly #store: JobStore;
  readonly #generator: OpenAiImagesClient;
  readonly #imagesDir: string;
  readonly #publicUrl: () => string;
  readonly #concurrency: number;
  readonly #queue: string[] = [];
  #running = 0;
  readonly #idle = new Set<() => void>();

  constructor(options: {
    store: JobStore;
    generator: OpenAiImagesClient;
    imagesDir: string;
    publicUrl: () => string;
    concurrency: number;
  }) {
    this.#store = options.store;
    this.#generator = options.generator;
    this.#imagesDir = options.imagesDir;
    this.#publicUrl = options.publicUrl;
    this.#concurrency = options.concurrency;
    mkdirSync(this.#imagesDir, { recursive: true });
  }

  enqueue(jobId: string): void {
    this.#queue.push(jobId);
    this.#pump();
  }

  /** Resolves when nothing is queued or running (graceful shutdown). */
  drained(): Promise<void> {
    if (this.#running === 0 && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.add(resolve));
  }

  #pump(): void {
    while (this.#running < this.#concurrency && this.#queue.length > 0) {
      const jobId = this.#queue.shift()!;
      this.#running += 1;
      void this.#run(jobId).finally(() => {
        this.#running -= 1;
        this.#pump();
        if (this.#running === 0 && this.#queue.length === 0) {
          for (const resolve of this.#idle) resolve();
          this.#idle.clear();
        }
      });
    }
  }

  async #run(jobId: string): Promise<void> {
    const job = this.#store.get(jobId);
    if (!job || job.status === 'done' || job.status === 'failed') return;
    this.#store.update(jobId, { status: 'running' });
    try {
      const urls: string[] = [];
      for (const [index, prompt] of job.prompts.entries())
        urls.push(await this.#generateOne(job, index, prompt));
      this.#store.update(jobId, { status: 'done', result_url: urls[0] ?? null, result_urls: urls });
    } catch (error) {
      const message =
        error instanceof ImageGenerationError ? error.message : 'The image could not be generated or saved.';
      this.#store.update(jobId, { status: 'failed', error: message });
    }
  }

  async #generateOne(job: Job, index: number, prompt: string): Promise<string> {
    const image = await this.#generator.generate(prompt);
    const file = `${job.job_id}-${index + 1}.${image.extension}`;
    writeFileSync(path.join(this.#imagesDir, file), image.bytes);
    return `${this.#publicUrl().replace(/\/+$/, '')}/images/${file}`;
  }
}
