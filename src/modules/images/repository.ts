import type { Kysely } from 'kysely';
import type { ImageJobState } from '../../providers/images/image-jobs-gateway.ts';
import type { ImageJobRow, ImagesTables } from './tables.ts';

export interface NewImageJob {
  jobId: string;
  userId: string;
  recipeId: string;
  kind: 'hero' | 'step';
  status: ImageJobState['status'];
}

export class ImagesRepository {
  readonly #db: Kysely<ImagesTables>;
  constructor(db: Kysely<ImagesTables>) {
    this.#db = db;
  }

  /** Image jobs per status (metrics). */
  async countByStatus(): Promise<{ status: string; count: number }[]> {
    return this.#db
      .selectFrom('image_jobs')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('status')
      .execute();
  }

  /** False when the job id is already known (the microservice reused an id). */
  async insert(job: NewImageJob): Promise<boolean> {
    const row = await this.#db
      .insertInto('image_jobs')
      .values({
        job_id: job.jobId,
        user_id: job.userId,
        recipe_id: job.recipeId,
        kind: job.kind,
        status: job.status,
      })
      .onConflict((oc) => oc.column('job_id').doNothing())
      .returning('job_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  findForUser(jobId: string, userId: string): Promise<ImageJobRow | undefined> {
    return this.#db
      .selectFrom('image_jobs')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** Records the microservice's answer; a finished job never goes back (racing polls). */
  async saveState(state: ImageJobState): Promise<ImageJobRow | undefined> {
    const updated = await this.#db
      .updateTable('image_jobs')
      .set({
        status: state.status,
        result_url: state.resultUrl,
        result_urls: state.resultUrls,
        error: state.error,
        updated_at: new Date(),
      })
      .where('job_id', '=', state.jobId)
      .where('status', 'not in', ['done', 'failed'])
      .returningAll()
      .executeTakeFirst();
    return (
      updated ??
      this.#db.selectFrom('image_jobs').selectAll().where('job_id', '=', state.jobId).executeTakeFirst()
    );
  }

  /** A hero job for the recipe, started by this user, that may still bring an image (not failed, not attached). */
  findOpenHero(recipeId: string, userId: string): Promise<ImageJobRow | undefined> {
    return this.#db
      .selectFrom('image_jobs')
      .selectAll()
      .where('recipe_id', '=', recipeId)
      .where('user_id', '=', userId)
      .where('kind', '=', 'hero')
      .where('status', '!=', 'failed')
      .where('attached_at', 'is', null)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  /** Claims the one attachment of a done job; false when another poll already claimed it. */
  async claimAttachment(jobId: string): Promise<boolean> {
    const row = await this.#db
      .updateTable('image_jobs')
      .set({ attached_at: new Date() })
      .where('job_id', '=', jobId)
      .where('attached_at', 'is', null)
      .returning('job_id')
      .executeTakeFirst();
    return row !== undefined;
  }
}
