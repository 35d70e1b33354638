import { upstreamError, upstreamTimeout } from '../../platform/errors.ts';

const SERVICE = 'language model';

/**
 * POSTs JSON and reads a server-sent-event answer, calling `onData` with each `data:` payload
 * parsed as JSON (`[DONE]` ends it). The one deadline covers the whole stream. A non-2xx answer is
 * returned (status and body text) for the caller to turn into an error.
 */
export async function postSse(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
  onData: (data: unknown) => void,
): Promise<{ status: number; text: string }> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body: JSON.stringify(body),
      signal,
    });
    if (response.status < 200 || response.status >= 300 || !response.body) {
      return { status: response.status, text: await response.text() };
    }
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).replace(/\r$/, '');
        buffer = buffer.slice(newline + 1);
        if (!line.startsWith('data:')) continue;
        const payload = line.slice(5).trim();
        if (payload === '[DONE]') return { status: response.status, text: '' };
        try {
          onData(JSON.parse(payload));
        } catch (error) {
          if (error instanceof SyntaxError) continue; // a keep-alive or malformed line
          throw error;
        }
      }
    }
    return { status: response.status, text: '' };
  } catch (error) {
    if (deadline.aborted) throw upstreamTimeout(SERVICE);
    if (options.signal?.aborted) throw upstreamError(SERVICE, 'The request was cancelled.');
    if (error instanceof Error && 'status' in error) throw error;
    const cause = (error as { cause?: { code?: string } })?.cause?.code;
    throw upstreamError(
      SERVICE,
      'The language model stream failed.',
      cause ?? (error instanceof Error ? error.message : 'network error'),
    );
  }
}
