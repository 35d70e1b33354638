import { z } from 'zod';

/**
 * Bodies are forwarded to the microservice as sent (plus user_id), so fields beyond these are
 * kept (loose objects) rather than stripped.
 */
const style = z.string().trim().min(1).max(200);
const description = z.string().trim().min(1).max(4000);

export const BatchBody = z.looseObject({ style });
export const StepBody = z.looseObject({ step_index: z.number().int().min(0).max(9999), description, style });
export const HeroBody = z.looseObject({ title: z.string().trim().min(1).max(300), description, style });

export const RecipeParams = z.object({ id: z.string() });
export const StepParams = z.object({ id: z.string(), n: z.string() });
export const JobParams = z.object({ job_id: z.string() });

const Status = z.enum(['pending', 'running', 'done', 'failed']);
export const StartedJob = z.object({ job_id: z.string(), status: Status });
export const ImageJobSchema = z
  .object({
    job_id: z.string(),
    status: Status,
    result_url: z.string().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'ImageJob' });
