const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND']);

/**
 * A lost or refused database connection (server restart, failover, pool timeout) is an outage the
 * client can retry, not a bug: SQLSTATE class 08 and admin shutdown 57P01-57P03, or a socket error.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const candidate = error as { code?: unknown; message?: unknown };
  const code = typeof candidate.code === 'string' ? candidate.code : '';
  if (code.startsWith('08') || /^57P0[1-3]$/.test(code) || CONNECTION_ERRNOS.has(code)) return true;
  const message = typeof candidate.message === 'string' ? candidate.message : '';
  return /^Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
    message,
  );
}

/** A statement cancelled by statement_timeout (SQLSTATE 57014, query_canceled). */
export function isStatementTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '57014';
}
