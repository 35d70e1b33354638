import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import {
  AppError,
  databaseTimeout,
  type FieldError,
  notFound,
  payloadTooLarge,
  serviceUnavailable,
  unsupportedMediaType,
  validationError,
} from '../errors.ts';
import { isDatabaseUnavailable, isStatementTimeout } from '../db/outage.ts';
import { PROBLEM_CONTENT_TYPE, problemTypeUri, type Problem } from './problem.ts';

/** The one place where errors become HTTP answers. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500 && appError.code === 'internal_error') {
      request.log.error({ err: error }, 'unhandled error');
    } else if (appError.status >= 500) {
      request.log.warn(
        { code: appError.code, detail: appError.message, upstream: appError.internal },
        'upstream or availability error',
      );
    }
    return sendProblem(request, reply, appError);
  });
  app.setNotFoundHandler((request, reply) => sendProblem(request, reply, notFound('Route')));
}

/**
 * Errors the router raises before any route runs (a path parameter longer than any id, a URL that
 * is not valid percent-encoding): answered as problem documents like everything else.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendProblem(request, reply, notFound());
  if (error.code === 'FST_ERR_BAD_URL') {
    return sendProblem(
      request,
      reply,
      validationError('The URL is not valid.', [{ field: 'url', message: 'malformed' }]),
    );
  }
  return sendProblem(request, reply, toAppError(error));
}

export function sendProblem(_request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const body: Problem = {
    type: problemTypeUri(error.code),
    title: error.title,
    status: error.status,
    detail: error.message,
    code: error.code,
    ...(error.errors ? { errors: error.errors } : {}),
    ...error.extra,
  };
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  // Bypass the route's response schema: problem documents have their own shape.
  return reply
    .code(error.status)
    .type(PROBLEM_CONTENT_TYPE)
    .serializer((payload: unknown) => JSON.stringify(payload))
    .send(body);
}

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: FieldError[] = error.validation.map((v) => ({
      field: fieldName(error.validationContext, v.instancePath),
      message: v.message ?? 'is invalid',
    }));
    const first = errors[0];
    return validationError(first ? `${first.field}: ${first.message}` : 'The request is invalid.', errors);
  }
  if (isResponseSerializationError(error)) {
    return new AppError(500, 'internal_error', 'Internal error', 'The server produced an invalid response.');
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return validationError('The request body is not valid JSON.', [
        { field: 'body', message: 'malformed JSON' },
      ]);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return unsupportedMediaType('The request content type is not supported by this route.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
      return payloadTooLarge();
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return unsupportedMediaType('The request must be multipart/form-data.');
    case 'FST_ERR_VALIDATION':
      return validationError(error.message, [
        { field: error.validationContext ?? 'body', message: error.message },
      ]);
  }
  if (isStatementTimeout(error)) return databaseTimeout();
  if (isDatabaseUnavailable(error)) {
    return serviceUnavailable('The database is unavailable; try again shortly.', 5);
  }
  const status = error.statusCode ?? 500;
  if (status === 404) return notFound();
  if (status >= 400 && status < 500) {
    return new AppError(status, 'bad_request', 'Bad request', error.message);
  }
  return new AppError(500, 'internal_error', 'Internal error', 'An unexpected error occurred.');
}

function fieldName(context: string | undefined, instancePath: string): string {
  const pathPart = instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (pathPart) return pathPart;
  return context ?? 'body';
}

const CLIENT_ERRORS: Record<string, { status: number; code: string; title: string; detail: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'request_timeout',
    title: 'Request Timeout',
    detail: 'The request was not received completely within REQUEST_TIMEOUT_MS.',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'headers_too_large',
    title: 'Request Header Fields Too Large',
    detail: 'The request headers are too large.',
  },
};

/**
 * Errors Node's HTTP parser raises before fastify sees a request (a client too slow to send its
 * request, oversized headers, malformed HTTP): a problem document written to the socket, then closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = CLIENT_ERRORS[error.code ?? ''] ?? {
    status: 400,
    code: 'bad_request',
    title: 'Bad Request',
    detail: `The request is not valid HTTP${error.code ? ` (${error.code})` : ''}.`,
  };
  const body = JSON.stringify({
    type: problemTypeUri(known.code),
    title: known.title,
    status: known.status,
    detail: known.detail,
    code: known.code,
  });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${known.title}\r\nConnection: close\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
