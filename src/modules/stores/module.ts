import path from 'node:path';
import type { DatabaseHandle } from '../../platform/db/database.ts';
import type { PlatformDeps } from '../index.ts';
import type { IngredientCatalog } from '../ingredients/contract.ts';
import { foodWords } from '../ingredients/vocabulary.ts';
import { JobQueue, type QueueOptions, type QueuePolicy } from '../../platform/jobs/queue.ts';
import type { LlmProvider } from '../../providers/llm/index.ts';
import { LazyOcrEngine } from '../../providers/ocr/lazy-engine.ts';
import {
  DEFAULT_PDF_LIMITS,
  IsolatedPdfReader,
  type PdfLimits,
} from '../../providers/pdf/isolated-reader.ts';
import { DatabaseFileStorage } from '../../providers/storage/database.ts';
import { LocalDiskStorage } from '../../providers/storage/local-disk.ts';
import type { FileStorage } from '../../providers/storage/storage.ts';
import { FlyerReader, type FlyerSource, type LayoutInputObserver } from './extraction/flyer-reader.ts';
import { LlmPageOffers, VisionPageOffers } from './extraction/llm-pages.ts';
import {
  FLYER_QUEUE_POLICY,
  FLYER_RECOVERY_POLICY,
  FlyerJobProcessor,
  FlyerWorker,
  type FlyerRecoveryPolicy,
} from './jobs.ts';
import { FlyerPagePictures } from './page-pictures.ts';
import { PricingService, type ShoppingNeeds } from './pricing.ts';
import { StoresRepository } from './repository.ts';
import { StoresService } from './service.ts';

export interface FlyerWorkerOptions {
  policy?: QueuePolicy;
  recovery?: FlyerRecoveryPolicy;
  queue?: Partial<QueueOptions>;
  /** Replace the flyer reader (tests wrap it to interrupt a run). */
  reader?: FlyerSource;
  /** The database channel of the queue (tests sever it to simulate a dead process). */
  queueDatabase?: DatabaseHandle;
  /**
   * Load OCR's models as the workers start (a dedicated worker process: its first image flyer
   * then reads at the speed of the next, ~5 s sooner), not at the first image page.
   */
  warmUp?: boolean;
}

/** Starts flyer workers in this process; answers their stop function. */
export type FlyerWorkers = (options?: FlyerWorkerOptions) => Promise<FlyerWorker>;

export interface StoresModule {
  stores: StoresService;
  pricing: PricingService;
  /** Flyer pages drawn for the review console. */
  pictures: FlyerPagePictures;
  startFlyerWorker: FlyerWorkers;
  /** The reader the workers use by default (LLM first when configured, then the layout parser). */
  flyerReader: FlyerReader;
  /** Stops the enqueue-only queue of this process (workers stop through their own handle). */
  close(): Promise<void>;
}

export function createStoresModule(
  deps: PlatformDeps,
  collaborators: { shopping: ShoppingNeeds; ingredients: IngredientCatalog; llm: LlmProvider },
): StoresModule {
  const repo = new StoresRepository(deps.db);
  const disk = new LocalDiskStorage(path.join(deps.config.dataDir, 'uploads'));
  // In the database by default, so a worker on another host reads what this instance stored; files
  // an earlier version left on the disk are still found there.
  const storage: FileStorage =
    deps.config.fileStorage === 'database' ? new DatabaseFileStorage(deps.db, disk) : disk;
  // pg-boss reports background failures (lost connections, maintenance) as events, not throws.
  const onError = (error: Error) => {
    if (deps.config.env !== 'test') {
      console.error(
        JSON.stringify({ level: 50, time: Date.now(), msg: 'job queue error', err: error.message }),
      );
    }
  };
  const sender = new JobQueue(deps.database, { supervise: false, onError });
  const stores = new StoresService(repo, storage, sender, deps.now, deps.config.candidateMinConfidence);
  const pricing = new PricingService(repo, collaborators.shopping, collaborators.ingredients, () =>
    stores.today(),
  );
  const { reader: flyerReader, close: closeReader } = createFlyerReader(
    collaborators.llm,
    deps.config.flyerLimits,
  );

  const startFlyerWorker: FlyerWorkers = async (options = {}) => {
    const queue = new JobQueue(options.queueDatabase ?? deps.database, {
      supervise: true,
      superviseIntervalSeconds: 30,
      pollingIntervalSeconds: 2,
      onError,
      ...options.queue,
    });
    const recovery = options.recovery ?? FLYER_RECOVERY_POLICY;
    const reader = options.reader ?? flyerReader;
    const processor = new FlyerJobProcessor(repo, storage, reader, deps.now, recovery.heartbeatSeconds);
    const worker = new FlyerWorker(
      queue,
      processor,
      options.policy ?? FLYER_QUEUE_POLICY,
      closeReader,
      recovery,
    );
    await worker.start();
    if (options.warmUp && !options.reader) warmUpInBackground(flyerReader);
    return worker;
  };

  const pictures = new FlyerPagePictures(repo, storage, new IsolatedPdfReader(deps.config.flyerLimits));
  return {
    stores,
    pricing,
    pictures,
    startFlyerWorker,
    flyerReader,
    close: () => sender.stop(),
  };
}

/**
 * The production flyer reader: the model first when one is configured (text pages; a vision model
 * for image pages), then the layout parser, with OCR for pages that are pictures. PDFs are parsed
 * in a worker thread within `limits`, so a hostile file fails its job and never the service. The workers and
 * `npm run flyers:score` use this same composition.
 */
export function createFlyerReader(
  llm: LlmProvider,
  limits: PdfLimits = DEFAULT_PDF_LIMITS,
  observeLayoutInput?: LayoutInputObserver,
): { reader: FlyerReader; close: () => Promise<void> } {
  const llmReader = llm.isConfigured('recipe') ? new LlmPageOffers(llm) : undefined;
  const visionReader = llm.isConfigured('vision') ? new VisionPageOffers(llm) : undefined;
  const ocr = new LazyOcrEngine({ preferredSpellings: foodWords });
  return {
    reader: new FlyerReader(new IsolatedPdfReader(limits), ocr, llmReader, visionReader, observeLayoutInput),
    close: () => ocr.close(),
  };
}

/**
 * Logged either way; a failure (a model missing from the install) stops nothing here: image pages
 * meet the same error as they would have at first use, and text flyers need no OCR.
 */
function warmUpInBackground(reader: FlyerReader): void {
  const started = Date.now();
  const log = (entry: Record<string, unknown>) =>
    process.stdout.write(`${JSON.stringify({ time: Date.now(), ...entry })}\n`);
  reader.warmUp().then(
    () => log({ level: 30, msg: 'flyer OCR warmed up', ms: Date.now() - started }),
    (error: unknown) => log({ level: 50, msg: 'flyer OCR warm-up failed', err: String(error) }),
  );
}
