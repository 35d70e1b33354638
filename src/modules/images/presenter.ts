import type { z } from 'zod';
import type { ImageJobSchema, StartedJob } from './schemas.ts';
import type { ImageJob } from './service.ts';

export function presentStarted(job: {
  jobId: string;
  status: ImageJob['status'];
}): z.infer<typeof StartedJob> {
  return { job_id: job.jobId, status: job.status };
}

export function presentJob(job: ImageJob): z.infer<typeof ImageJobSchema> {
  return { job_id: job.jobId, status: job.status, result_url: job.resultUrl, error: job.error };
}
