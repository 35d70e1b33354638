import { IMMEDIATE, type TransactionScope } from '../../platform/db/unit-of-work.ts';
import { notConfigured, notFound, upstreamError } from '../../platform/errors.ts';
import type { Principal } from '../../platform/http/auth.ts';
import { isUuid } from '../../platform/http/ids.ts';
import { spentAnyway, type DailyAllowances } from '../../platform/quotas/daily-allowance.ts';
import type { Tier } from '../../platform/security/tokens.ts';
import {
  JOB_ID_PATTERN,
  type ImageJobsGateway,
  type ImageJobState,
} from '../../providers/images/image-jobs-gateway.ts';
import type { RecipeCatalog, Viewer } from '../recipes/contract.ts';
import { backfillCatalogImages, type BackfillOptions, type BackfillProgress } from './backfill.ts';
import type { ImagesRepository } from './repository.ts';
import type { ImageJobRow } from './tables.ts';

export interface ImageJob {
  jobId: string;
  status: ImageJobState['status'];
  resultUrl: string | null;
  error: string | null;
}

export interface ImagesDeps {
  repo: ImagesRepository;
  recipes: Pick<RecipeCatalog, 'getVisible' | 'attachImage' | 'catalogWithoutImages'>;
  /** Undefined when IMAGE_GEN_URL is not set. */
  gateway: ImageJobsGateway | undefined;
  /** Image jobs each user may start per UTC day (admins: unlimited). */
  allowances?: DailyAllowances;
  imageJobsPerDay?: (tier: Tier) => number;
  now?: () => Date;
  /** Cross-module transactions: the attachment claim and the recipe's images commit together. */
  uow?: TransactionScope;
  log?: (message: string, details: Record<string, unknown>) => void;
}

/** A path step number: digits only, so nothing but a number reaches the forwarded path. */
const STEP_NUMBER = /^\d{1,4}$/;
const TERMINAL = new Set(['done', 'failed']);

/**
 * The image-generation proxy (contract §9). Starts jobs on the microservice for recipes the caller
 * can see, remembers who started each job (nobody else can poll it), and hands a finished image to
 * the recipe once.
 */
export class ImagesService {
  readonly #deps: ImagesDeps;
  constructor(deps: ImagesDeps) {
    this.#deps = deps;
  }

  /** Image jobs per status, for the operators' metrics. */
  jobCounts(): Promise<{ status: string; count: number }[]> {
    return this.#deps.repo.countByStatus();
  }

  startHero(caller: Principal, recipeId: string, body: Record<string, unknown>) {
    return this.#start(caller, recipeId, 'hero', 'hero', body);
  }

  startStep(caller: Principal, recipeId: string, stepNumber: string, body: Record<string, unknown>) {
    if (!STEP_NUMBER.test(stepNumber)) throw notFound('Step');
    return this.#start(caller, recipeId, 'step', `steps/${Number(stepNumber)}`, body);
  }

  /**
   * Every step at once. The microservice cannot read our recipes, so the recipe's title and step
   * texts are added to the forwarded body (`title`, `steps`) unless the caller sent their own.
   */
  startBatch(caller: Principal, recipeId: string, body: Record<string, unknown>) {
    return this.#start(caller, recipeId, 'step', 'steps/batch', body, (recipe) => ({
      title: recipe.title,
      steps: recipe.steps,
    }));
  }

  /** npm run images:backfill: hero images for the catalog recipes without one (backfill.ts). */
  async backfillCatalog(operator: Principal, options: BackfillOptions): Promise<BackfillProgress> {
    this.#gateway();
    return backfillCatalogImages(
      { images: this, repo: this.#deps.repo, recipes: this.#deps.recipes },
      operator,
      options,
    );
  }

  async getJob(caller: Principal, jobId: string): Promise<ImageJob> {
    if (!JOB_ID_PATTERN.test(jobId)) throw notFound('Image job');
    const row = await this.#deps.repo.findForUser(jobId, caller.id);
    if (!row) throw notFound('Image job');
    if (TERMINAL.has(row.status)) {
      await this.#attachOnce(row, caller);
      return present(row);
    }
    const state = await this.#gateway().get(jobId);
    const saved = (await this.#deps.repo.saveState(state)) ?? row;
    await this.#attachOnce(saved, caller);
    return present(saved);
  }

  async #start(
    caller: Principal,
    recipeId: string,
    kind: 'hero' | 'step',
    restAfterRecipe: string,
    body: Record<string, unknown>,
    context?: (recipe: { title: string; steps: string[] }) => Record<string, unknown>,
  ): Promise<{ jobId: string; status: ImageJobState['status'] }> {
    const gateway = this.#gateway();
    const recipe = isUuid(recipeId)
      ? await this.#deps.recipes.getVisible(recipeId, viewerOf(caller))
      : undefined;
    if (!recipe) throw notFound('Recipe');
    const forwarded = { ...(context ? context(recipe) : {}), ...body, user_id: caller.id };
    const job = await this.#withinAllowance(caller, () =>
      gateway.start(`recipes/${recipe.id}/${restAfterRecipe}`, forwarded),
    );
    const inserted = await this.#deps.repo.insert({
      jobId: job.jobId,
      userId: caller.id,
      recipeId: recipe.id,
      kind,
      status: job.status,
    });
    if (!inserted) throw upstreamError('image service', 'The image service reused a job id.');
    return job;
  }

  /** Each started job takes one of the caller's daily image jobs; one that never started is given back. */
  async #withinAllowance<T>(caller: Principal, start: () => Promise<T>): Promise<T> {
    const { allowances, imageJobsPerDay } = this.#deps;
    if (!allowances || !imageJobsPerDay || caller.isAdmin) return start();
    const now = this.#deps.now?.() ?? new Date();
    await allowances.take(caller.id, 'image_job', imageJobsPerDay(caller.tier), now);
    try {
      return await start();
    } catch (error) {
      if (!spentAnyway(error)) await allowances.giveBack(caller.id, 'image_job', now);
      throw error;
    }
  }

  /**
   * A done job's images go to the recipe once; the recipes module decides whether the caller may.
   * The claim and every attachment commit together: a failure (or a crash) part-way leaves the
   * job unclaimed and the recipe unchanged, and the next poll tries again.
   */
  async #attachOnce(row: ImageJobRow, caller: Principal): Promise<void> {
    if (row.status !== 'done' || row.attached_at || row.result_urls.length === 0) return;
    try {
      await (this.#deps.uow ?? IMMEDIATE).run(async () => {
        if (!(await this.#deps.repo.claimAttachment(row.job_id))) return;
        // A hero job has one image (it becomes the first); a batch appends one per step.
        const urls = row.kind === 'hero' ? row.result_urls.slice(0, 1) : row.result_urls;
        for (const url of urls) {
          await this.#deps.recipes.attachImage(row.recipe_id, url, row.kind, viewerOf(caller));
        }
      });
    } catch (error) {
      this.#deps.log?.('attaching a generated image failed; the next poll retries', {
        job: row.job_id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  #gateway(): ImageJobsGateway {
    if (!this.#deps.gateway) throw notConfigured('IMAGE_GEN_URL', 'Image generation');
    return this.#deps.gateway;
  }
}

const viewerOf = (caller: Principal): Viewer => ({ id: caller.id, isAdmin: caller.isAdmin });

function present(row: ImageJobRow): ImageJob {
  return { jobId: row.job_id, status: row.status, resultUrl: row.result_url, error: row.error };
}
