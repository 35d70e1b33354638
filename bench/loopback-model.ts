import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 that answers at once ("OK", no tool
 * calls) and measures its own time per call (request received → answer written), so that a
 * benchmark can subtract the model's time from the service's and keep the service's overhead.
 */
export interface LoopbackModel {
  /** The value for LLM_BASE_URL. */
  baseUrl: string;
  calls(): number;
  /** Sum of the model's own handling time over all calls, in milliseconds. */
  modelMs(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startLoopbackModel(): Promise<LoopbackModel> {
  let calls = 0;
  let modelMs = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const model = (JSON.parse(body || '{}') as { model?: string }).model ?? 'loopback';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${calls}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'OK' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
        }),
      );
      calls += 1;
      modelMs += performance.now() - started;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls: () => calls,
    modelMs: () => modelMs,
    reset: () => {
      calls = 0;
      modelMs = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
