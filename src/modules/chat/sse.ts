import type { FastifyReply } from 'fastify';
import { AppError } from '../../platform/errors.ts';
import { problemTypeUri } from '../../platform/http/problem.ts';

/**
 * A server-sent-event answer that starts lazily: nothing is written until the first event, so an
 * error raised before it (404, 429, 503 …) is still an ordinary problem document with its status.
 */
export class SseAnswer {
  readonly #reply: FastifyReply;
  #started = false;
  constructor(reply: FastifyReply) {
    this.#reply = reply;
  }

  get started(): boolean {
    return this.#started;
  }

  send(event: string, data: unknown): void {
    if (!this.#started) this.#start();
    if (this.#reply.raw.writableEnded) return;
    this.#reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** An error after the stream began: a final `error` event carrying the problem document. */
  fail(error: unknown): void {
    const problem =
      error instanceof AppError
        ? {
            type: problemTypeUri(error.code),
            title: error.title,
            status: error.status,
            detail: error.message,
            code: error.code,
          }
        : {
            type: problemTypeUri('internal_error'),
            title: 'Internal error',
            status: 500,
            detail: 'An unexpected error occurred.',
            code: 'internal_error',
          };
    this.send('error', problem);
    this.end();
  }

  end(): void {
    if (!this.#reply.raw.writableEnded) this.#reply.raw.end();
  }

  #start(): void {
    this.#started = true;
    this.#reply.hijack();
    this.#reply.raw.writeHead(200, {
      ...(this.#reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-store',
      'x-accel-buffering': 'no',
    });
  }
}
