import type { ColumnType, Selectable } from 'kysely';
import type { ImageJobStatus } from '../../providers/images/image-jobs-gateway.ts';

/** Jobs started through the proxy: who started them, for which recipe, and what came back. */
export interface ImageJobsTable {
  job_id: string;
  user_id: string;
  recipe_id: string;
  kind: 'hero' | 'step';
  status: ImageJobStatus;
  result_url: string | null;
  /** Every image of a batch job, attached in order. */
  result_urls: ColumnType<string[], string[] | undefined, string[]>;
  error: string | null;
  /** Set once the result was handed to the recipe (whether or not the recipes module took it). */
  attached_at: Date | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface ImagesTables {
  image_jobs: ImageJobsTable;
}

export type ImageJobRow = Selectable<ImageJobsTable>;
