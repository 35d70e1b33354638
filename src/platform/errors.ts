/**
 * Domain errors. Services throw these; one handler (platform/http/error-handler.ts) turns them
 * into RFC 9457 problem documents (contract §2). Nothing else decides an error's status or code.
 */
export interface FieldError {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;
  /** What an upstream said, for the log only: never part of the answer a client gets. */
  readonly internal: string | undefined;

  constructor(
    status: number,
    code: string,
    title: string,
    detail: string,
    options: {
      errors?: FieldError[];
      headers?: Record<string, string>;
      extra?: Record<string, unknown>;
      internal?: string;
    } = {},
  ) {
    super(detail);
    this.status = status;
    this.code = code;
    this.title = title;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
    this.internal = options.internal;
  }
}

export const validationError = (detail: string, errors: FieldError[] = []) =>
  new AppError(400, 'validation_error', 'Validation failed', detail, { errors });

/** A single-field validation failure, the common case in services. */
export const invalidField = (field: string, message: string) =>
  validationError(`${field}: ${message}`, [{ field, message }]);

export const invalidSignature = (detail = 'The webhook signature is missing or invalid.') =>
  new AppError(400, 'invalid_signature', 'Invalid signature', detail);

export const unauthorized = (detail = 'A valid access token is required.') =>
  new AppError(401, 'unauthorized', 'Unauthorized', detail, { headers: { 'www-authenticate': 'Bearer' } });

export const invalidCredentials = () =>
  new AppError(401, 'invalid_credentials', 'Invalid credentials', 'The email or password is incorrect.');

export const invalidRefreshToken = (detail = 'The refresh token is missing, expired or no longer valid.') =>
  new AppError(401, 'invalid_refresh_token', 'Invalid refresh token', detail);

export const tierRequired = (requiredTier: string) =>
  new AppError(403, 'tier_required', 'Upgrade required', `This feature requires the ${requiredTier} tier.`, {
    extra: { required_tier: requiredTier },
  });

export const forbidden = (detail = 'You are not allowed to do this.') =>
  new AppError(403, 'forbidden', 'Forbidden', detail);

export const notFound = (what = 'Resource') =>
  new AppError(404, 'not_found', 'Not found', `${what} not found.`);

export const emailTaken = () =>
  new AppError(409, 'email_taken', 'Email taken', 'An account with this email already exists.');

export const conflict = (detail: string) => new AppError(409, 'conflict', 'Conflict', detail);

export const payloadTooLarge = (detail = 'The request body is too large.') =>
  new AppError(413, 'payload_too_large', 'Payload too large', detail);

export const unsupportedMediaType = (detail: string) =>
  new AppError(415, 'unsupported_media_type', 'Unsupported media type', detail);

export const noMatchingRecipes = (detail = 'No recipe satisfies your constraints.') =>
  new AppError(422, 'no_matching_recipes', 'No matching recipes', detail);

export const rateLimited = (retryAfterSeconds: number) =>
  new AppError(
    429,
    'rate_limited',
    'Too many requests',
    `Rate limit exceeded, retry in ${retryAfterSeconds} s.`,
    {
      headers: { 'retry-after': String(retryAfterSeconds) },
    },
  );

export const chatDailyLimit = (retryAfterSeconds: number, limit: number) =>
  new AppError(
    429,
    'chat_daily_limit',
    'Daily chat limit reached',
    `The Free tier allows ${limit} chat messages per UTC day.`,
    { headers: { 'retry-after': String(retryAfterSeconds) } },
  );

/**
 * An upstream (model, image service, payment provider) failed. `detail` is in our own words;
 * whatever the upstream said goes in `internal`, which is logged and never sent to the client.
 */
export const upstreamError = (service: string, detail?: string, internal?: string) =>
  new AppError(
    502,
    'upstream_error',
    'Upstream error',
    detail ?? `The ${service} failed to answer.`,
    internal === undefined ? {} : { internal },
  );

export const upstreamTimeout = (service: string) =>
  new AppError(504, 'upstream_timeout', 'Upstream timeout', `The ${service} did not answer in time.`);

export const notConfigured = (setting: string, feature: string) =>
  new AppError(503, 'not_configured', 'Not configured', `${feature} is not configured: set ${setting}.`);

export const serviceUnavailable = (detail: string, retryAfterSeconds?: number) =>
  new AppError(503, 'service_unavailable', 'Service unavailable', detail, {
    ...(retryAfterSeconds ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {}),
  });

export const idempotencyKeyReused = () =>
  new AppError(
    422,
    'idempotency_key_reused',
    'Idempotency key reused',
    'This Idempotency-Key was already used for a different request (other path or body); use a new key.',
  );

export const idempotencyInProgress = () =>
  new AppError(
    409,
    'idempotency_in_progress',
    'Request in progress',
    'A request with this Idempotency-Key is still being processed; retry shortly.',
    { headers: { 'retry-after': '1' } },
  );

/** A database statement ran past DB_STATEMENT_TIMEOUT_MS and was cancelled. */
export const databaseTimeout = () =>
  new AppError(
    503,
    'database_timeout',
    'Database timeout',
    'The database did not finish in time; nothing was changed. Try again shortly.',
    { headers: { 'retry-after': '5' } },
  );

/** A stored flyer whose page cannot be drawn (a broken or hostile PDF): retrying does not help. */
export const unreadableFlyer = (detail: string) =>
  new AppError(422, 'unreadable_flyer', 'Unreadable flyer', detail);
