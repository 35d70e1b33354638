import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';

export type JobStatus = 'pending' | 'running' | 'done' | 'failed';

export interface Job {
  job_id: string;
  user_id: string | null;
  recipe_id: string;
  kind: 'hero' | 'step' | 'batch';
  /** One prompt per image to generate. */
  prompts: string[];
  status: JobStatus;
  result_url: string | null;
  result_urls: string[];
  error: string | null;
  created_at: string;
  updated_at: string;
}

/** Finished jobs older than this are dropped when the store loads. */
const RETENTION_MS = 30 * 24 * 3600 * 1000;

/**
 * Jobs in memory, written through to one JSON file (replaced atomically) so that a restart keeps
 * them. The reference service runs as a single process; this is not meant for several instances.
 */
export class JobStore {
  readonly #file: string;
  readonly #jobs = new Map<string, Job>();

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.#file = path.join(dataDir, 'jobs.json');
    if (existsSync(this.#file)) this.#load();
  }

  create(input: Pick<Job, 'user_id' | 'recipe_id' | 'kind' | 'prompts'>): Job {
    const now = new Date().toISOString();
    const job: Job = {
      ...input,
      job_id: `img_${randomBytes(12).toString('hex')}`,
      status: 'pending',
      result_url: null,
      result_urls: [],
      error: null,
      created_at: now,
      updated_at: now,
    };
    this.#jobs.set(job.job_id, job);
    this.#persist();
    return job;
  }

  get(jobId: string): Job | undefined {
    return this.#jobs.get(jobId);
  }

  update(jobId: string, changes: Partial<Pick<Job, 'status' | 'result_url' | 'result_urls' | 'error'>>): Job {
    const job = this.#jobs.get(jobId);
    if (!job) throw new Error(`unknown job ${jobId}`);
    Object.assign(job, changes, { updated_at: new Date().toISOString() });
    this.#persist();
    return job;
  }

  /** Jobs a restart interrupted, oldest first: they are run again. */
  unfinished(): Job[] {
    return [...this.#jobs.values()]
      .filter((j) => j.status === 'pending' || j.status === 'running')
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  #load(): void {
    const jobs = JSON.parse(readFileSync(this.#file, 'utf8')) as Job[];
    const cutoff = Date.now() - RETENTION_MS;
    for (const job of jobs) {
      const finished = job.status === 'done' || job.status === 'failed';
      if (finished && Date.parse(job.updated_at) < cutoff) continue;
      this.#jobs.set(job.job_id, job);
    }
  }

  #persist(): void {
    const temp = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify([...this.#jobs.values()]));
    renameSync(temp, this.#file);
  }
}
