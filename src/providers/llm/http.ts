import { upstreamError, upstreamTimeout } from '../../platform/errors.ts';

const SERVICE = 'language model';

/**
 * POSTs JSON to a model server with a hard deadline covering connect, headers and body. A
 * deadline is a 504 upstream_timeout; a refused connection, a non-2xx answer or a body that is
 * not JSON is a 502 upstream_error. No hidden retries: a chat reply must not run twice.
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<{ status: number; json: unknown; text: string }> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal,
    });
    text = await response.text();
  } catch (error) {
    if (deadline.aborted) throw upstreamTimeout(SERVICE);
    if (options.signal?.aborted) throw upstreamError(SERVICE, 'The request was cancelled.');
    throw upstreamError(SERVICE, 'The language model server could not be reached.', describe(error));
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

/** A non-2xx model answer: the status for the client, the server's own message for the log. */
export function upstreamStatusError(status: number, json: unknown, text: string) {
  const message = serverMessage(json) ?? text.slice(0, 500);
  return upstreamError(SERVICE, `The language model server answered ${status}.`, message || undefined);
}

export function malformedAnswer(detail: string) {
  return upstreamError(SERVICE, 'The language model answer was malformed.', detail);
}

function serverMessage(json: unknown): string | undefined {
  if (!json || typeof json !== 'object') return undefined;
  const error = (json as { error?: unknown }).error;
  if (typeof error === 'string') return error.slice(0, 500);
  if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message.slice(0, 500);
  }
  return undefined;
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string } })?.cause?.code;
  return cause ?? (error instanceof Error ? error.message : 'network error');
}

export function parseArguments(raw: unknown): { value: Record<string, unknown>; error?: string } {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return { value: raw as Record<string, unknown> };
  if (typeof raw !== 'string' || raw.trim() === '') return { value: {} };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return { value: parsed as Record<string, unknown> };
    }
    return { value: {}, error: 'arguments are not a JSON object' };
  } catch {
    return { value: {}, error: 'arguments are not valid JSON' };
  }
}
