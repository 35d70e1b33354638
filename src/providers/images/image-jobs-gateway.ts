import { upstreamError, upstreamTimeout } from '../../platform/errors.ts';

/**
 * The image-generation microservice seen from the main service (contract §9): jobs are started by
 * forwarding the caller's request and polled by id. Only this file speaks its HTTP protocol.
 */
export type ImageJobStatus = 'pending' | 'running' | 'done' | 'failed';

export interface ImageJobState {
  jobId: string;
  status: ImageJobStatus;
  resultUrl: string | null;
  /** Every image of a batch job (the microservice's `result_urls`); [resultUrl] otherwise. */
  resultUrls: string[];
  error: string | null;
}

export interface ImageJobsGateway {
  /** POST IMAGE_GEN_URL/<rest> with the JSON body; answers the started job. */
  start(rest: string, body: Record<string, unknown>): Promise<{ jobId: string; status: ImageJobStatus }>;
  /** GET IMAGE_GEN_URL/jobs/<jobId>. */
  get(jobId: string): Promise<ImageJobState>;
}

export interface HttpImageJobsSettings {
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>` when set; the caller's own header never is. */
  token: string | undefined;
  timeoutMs: number;
}

const SERVICE = 'image service';
const STATUSES: readonly string[] = ['pending', 'running', 'done', 'failed'];
/** Job ids travel in URL paths: only these characters are accepted from the microservice. */
export const JOB_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

export class HttpImageJobsGateway implements ImageJobsGateway {
  readonly #settings: HttpImageJobsSettings;
  constructor(settings: HttpImageJobsSettings) {
    this.#settings = settings;
  }

  async start(rest: string, body: Record<string, unknown>) {
    const answer = await this.#call('POST', rest, body);
    const job = readJob(answer);
    return { jobId: job.jobId, status: job.status };
  }

  async get(jobId: string): Promise<ImageJobState> {
    // A job document may leave out its own id; the one asked for is meant then.
    const job = readJob(await this.#call('GET', `jobs/${encodeURIComponent(jobId)}`), jobId);
    if (job.jobId !== jobId) throw upstreamError(SERVICE, 'The image service answered for another job.');
    return job;
  }

  async #call(method: 'GET' | 'POST', rest: string, body?: Record<string, unknown>): Promise<unknown> {
    const url = `${this.#settings.baseUrl.replace(/\/+$/, '')}/${rest}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body) headers['content-type'] = 'application/json';
    if (this.#settings.token) headers.authorization = `Bearer ${this.#settings.token}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body ? JSON.stringify(body) : null,
        signal: AbortSignal.timeout(this.#settings.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw isTimeout(error)
        ? upstreamTimeout(SERVICE)
        : upstreamError(SERVICE, 'The image service cannot be reached.');
    }
    try {
      const text = await response.text();
      if (!response.ok) throw upstreamError(SERVICE, `The image service answered ${response.status}.`);
      return JSON.parse(text) as unknown;
    } catch (error) {
      if (isTimeout(error)) throw upstreamTimeout(SERVICE);
      if (error instanceof SyntaxError)
        throw upstreamError(SERVICE, 'The image service answered invalid JSON.');
      throw error;
    }
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

const nullableString = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
/** Result URLs end up in recipes: only absolute http(s) URLs are taken. */
const isHttpUrl = (v: unknown): v is string => typeof v === 'string' && /^https?:\/\/\S+$/i.test(v);

/** Reads the microservice's job document; anything else is an upstream error. */
function readJob(answer: unknown, expectedId?: string): ImageJobState {
  const a = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  const jobId = a.job_id ?? expectedId;
  const status = a.status;
  if (
    typeof jobId !== 'string' ||
    !JOB_ID_PATTERN.test(jobId) ||
    typeof status !== 'string' ||
    !STATUSES.includes(status)
  ) {
    throw upstreamError(SERVICE, 'The image service answered without a valid job_id and status.');
  }
  const resultUrl = isHttpUrl(a.result_url) ? a.result_url : null;
  const many = Array.isArray(a.result_urls) ? a.result_urls.filter(isHttpUrl) : [];
  return {
    jobId,
    status: status as ImageJobStatus,
    resultUrl,
    resultUrls: many.length > 0 ? many : resultUrl ? [resultUrl] : [],
    error: nullableString(a.error),
  };
}
