import type { FastifyServerOptions } from 'fastify';

/** Structured JSON logs with the request id; secrets never reach them. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.access_token',
        '*.refresh_token',
        '*.token',
      ],
      censor: '[redacted]',
    },
  };
}
