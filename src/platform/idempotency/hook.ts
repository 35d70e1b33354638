import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { z } from 'zod';
import { idempotencyInProgress, idempotencyKeyReused, invalidField } from '../errors.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import { IdempotencyStore, type IdempotencyScope } from './store.ts';

/**
 * How a route accepts `Idempotency-Key` (route config `idempotent`):
 * - `true`: the key, the handler's writes and the stored response commit in one transaction. A
 *   concurrent duplicate waits for the first and gets its response; a failed request stores
 *   nothing, so its retry runs again.
 * - `'reserve'`: for handlers that wait on a slow upstream (a language model) and must not hold a
 *   transaction meanwhile: the key is committed as "in progress" first; a duplicate arriving then
 *   gets 409 `idempotency_in_progress` (Retry-After: 1); a failure releases the key.
 */
export type IdempotencyMode = true | 'reserve';

declare module 'fastify' {
  interface FastifyContextConfig {
    idempotent?: IdempotencyMode;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Replayed answers carry this header. */
export const REPLAYED_HEADER = 'idempotent-replayed';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** A completed key answers retries this long. */
const KEEP_MS = 24 * 60 * 60 * 1000;
/** A reserved key whose process died is free again after this. */
const RESERVE_MS = 10 * 60 * 1000;

const HeadersSchema = z.looseObject({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .regex(KEY_PATTERN)
    .optional()
    .meta({
      description:
        'Makes a retry safe: a repeat with the same key and body (within 24 h) answers the stored ' +
        'response without applying again (header Idempotent-Replayed: true); the same key with ' +
        'another body or path is a 422 `idempotency_key_reused`. 1..255 visible ASCII characters.',
    }),
});

export function registerIdempotency(app: FastifyInstance, uow: UnitOfWork, now: () => Date): void {
  const store = new IdempotencyStore(uow.db);
  app.addHook('onRoute', (route) => {
    const mode = route.config?.idempotent;
    if (!mode) return;
    const original = route.handler as RouteHandlerMethod;
    if (route.schema && !route.schema.headers) route.schema.headers = HeadersSchema;
    const suffix =
      mode === true
        ? ' Accepts `Idempotency-Key`: a retry with the same key and body answers the stored response.'
        : ' Accepts `Idempotency-Key`: a retry with the same key and body answers the stored response; ' +
          'one sent while the first still runs is a 409 `idempotency_in_progress`.';
    if (route.schema) route.schema.description = `${route.schema.description ?? ''}${suffix}`.trim();
    route.handler = async function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const key = request.headers[IDEMPOTENCY_HEADER];
      const userId = request.principal?.id;
      if (key === undefined || !userId) return original.call(this, request, reply);
      if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
        throw invalidField(IDEMPOTENCY_HEADER, 'must be 1..255 visible ASCII characters');
      }
      const scope: IdempotencyScope = {
        userId,
        key,
        method: request.method,
        route: request.routeOptions.url ?? '',
      };
      const fingerprint = fingerprintOf(request);
      const later = (ms: number) => new Date(now().getTime() + ms);

      const replay = async () => {
        const stored = await store.find(scope);
        if (!stored) throw idempotencyInProgress();
        if (stored.fingerprint !== fingerprint) throw idempotencyKeyReused();
        if (stored.statusCode === null) throw idempotencyInProgress();
        reply.header(REPLAYED_HEADER, 'true').code(stored.statusCode);
        return stored.response === null ? reply.send() : stored.response;
      };
      // The handler's answer is held back (reply.send deferred) until the key and the writes have
      // committed, so a client never sees a success that was then rolled back.
      const run = async (): Promise<Answer> => {
        let deferred: Answer | undefined;
        let markSent: () => void = () => undefined;
        const sentSignal = new Promise<{ value: unknown }>((resolve) => {
          markSent = () => resolve({ value: undefined });
        });
        const send = reply.send;
        reply.send = ((payload?: unknown) => {
          deferred = { [ANSWER]: true, sent: true, payload };
          markSent();
          return reply;
        }) as typeof reply.send;
        let returned: unknown;
        try {
          // A handler returning `reply.send(x)` settles only once the reply is really sent (a reply
          // is a thenable), which waits for this commit: the deferred send is the signal instead.
          const handled = Promise.resolve(original.call(this, request, reply)).then((value) => ({ value }));
          ({ value: returned } = await Promise.race([handled, sentSignal]));
        } finally {
          reply.send = send;
        }
        const answer: Answer = deferred ?? { [ANSWER]: true, sent: false, payload: returned };
        await store.complete(scope, reply.statusCode, answer.payload ?? null, later(KEEP_MS));
        return answer;
      };
      const deliver = (answer: Answer | unknown) => {
        if (!isAnswer(answer)) return answer; // a replay
        return answer.sent ? reply.send(answer.payload) : answer.payload;
      };

      if (mode === true) {
        return deliver(
          await uow.run(async () =>
            (await store.claim(scope, fingerprint, later(KEEP_MS))) ? run() : replay(),
          ),
        );
      }
      if (!(await uow.run(() => store.claim(scope, fingerprint, later(RESERVE_MS))))) return replay();
      try {
        return deliver(await run());
      } catch (error) {
        await store.release(scope);
        throw error;
      }
    };
  });
}

interface Answer {
  readonly [ANSWER]: true;
  sent: boolean;
  payload: unknown;
}
const ANSWER = Symbol('answer');
const isAnswer = (value: unknown): value is Answer =>
  typeof value === 'object' && value !== null && ANSWER in value;

/** Path with query and the validated body, keys sorted: what "the same request" means. */
function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(request.url)
    .update('\n')
    .update(canonicalJson(request.body ?? null))
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
