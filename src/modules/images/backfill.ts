import type { Principal } from '../../platform/http/auth.ts';
import type { RecipeCatalog } from '../recipes/contract.ts';
import type { ImagesRepository } from './repository.ts';
import type { ImagesService } from './service.ts';

/**
 * `npm run images:backfill`: a hero image for every catalog recipe that has none, through the
 * configured image service and the same job path as POST /api/image-gen/recipes/:id/hero (so the
 * image is attached exactly once, by the job's first finished poll).
 *
 * - Resumable: a recipe with an open hero job of the operator (started by an earlier run that
 *   stopped or crashed) is polled, not started again.
 * - Bounded: at most `maxJobs` new jobs a run (the cost), at most `perMinute` starts a minute (the
 *   rate); polling stops after `pollTimeoutMs` (jobs left running are picked up by the next run).
 */
export interface BackfillOptions {
  maxJobs: number;
  perMinute: number;
  pollIntervalMs: number;
  pollTimeoutMs: number;
  onProgress?: (progress: BackfillProgress) => void;
  sleep?: (ms: number) => Promise<void>;
}

export interface BackfillProgress {
  /** Catalog recipes without an image when the run began. */
  total: number;
  started: number;
  resumed: number;
  attached: number;
  failed: number;
  /** Left for a later run: over maxJobs, or still running at the poll timeout. */
  left: number;
}

interface Tracked {
  recipeId: string;
  jobId: string;
  finished: boolean;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function backfillCatalogImages(
  deps: {
    images: ImagesService;
    repo: ImagesRepository;
    recipes: Pick<RecipeCatalog, 'catalogWithoutImages'>;
  },
  operator: Principal,
  options: BackfillOptions,
): Promise<BackfillProgress> {
  const sleep = options.sleep ?? wait;
  const todo = await deps.recipes.catalogWithoutImages();
  const progress: BackfillProgress = {
    total: todo.length,
    started: 0,
    resumed: 0,
    attached: 0,
    failed: 0,
    left: 0,
  };
  const report = () => options.onProgress?.({ ...progress });
  const tracked: Tracked[] = [];
  const gap = Math.ceil(60_000 / Math.max(options.perMinute, 1));
  for (const recipe of todo) {
    const open = await deps.repo.findOpenHero(recipe.id, operator.id);
    if (open) {
      tracked.push({ recipeId: recipe.id, jobId: open.job_id, finished: false });
      progress.resumed += 1;
      continue;
    }
    if (progress.started >= options.maxJobs) {
      progress.left += 1;
      continue;
    }
    if (progress.started > 0) await sleep(gap);
    try {
      const job = await deps.images.startHero(operator, recipe.id, {
        title: recipe.title,
        description: recipe.description || recipe.title,
      });
      tracked.push({ recipeId: recipe.id, jobId: job.jobId, finished: false });
      progress.started += 1;
    } catch {
      progress.failed += 1;
    }
    report();
  }
  const deadline = Date.now() + options.pollTimeoutMs;
  while (tracked.some((t) => !t.finished) && Date.now() < deadline) {
    for (const t of tracked.filter((x) => !x.finished)) {
      try {
        const job = await deps.images.getJob(operator, t.jobId);
        if (job.status === 'done') {
          t.finished = true;
          progress.attached += 1;
        } else if (job.status === 'failed') {
          t.finished = true;
          progress.failed += 1;
        }
      } catch {
        // The image service did not answer this poll: try again on the next round.
      }
    }
    report();
    if (tracked.some((t) => !t.finished)) await sleep(options.pollIntervalMs);
  }
  progress.left += tracked.filter((t) => !t.finished).length;
  report();
  return progress;
}

/** `[#########-----------]  9/20 attached, 1 failed, 0 left` */
export function progressBar(p: BackfillProgress, width = 24): string {
  const done = p.attached + p.failed;
  const all = Math.max(p.started + p.resumed, 1);
  const filled = Math.round((Math.min(done, all) / all) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${p.started + p.resumed} jobs: ${p.attached} attached, ${p.failed} failed, ${p.left} left of ${p.total}`;
}
