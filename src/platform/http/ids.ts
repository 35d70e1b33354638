import { z } from 'zod';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed id is a 404, like an unknown one (contract §2): services check with this first. */
export const isUuid = (value: string): boolean => UUID_RE.test(value);

/** Path parameter `:id` kept as a string so that a malformed id answers 404, not 400. */
export const IdParams = z.object({ id: z.string() });

/** limit/offset of contract §2: limit 1..max (default per route), offset ≥ 0. */
export function pagination(defaultLimit: number, maxLimit = 100) {
  // An empty query value (`?limit=`) means "not given", not zero.
  const blankAsMissing = (v: unknown) => (v === '' ? undefined : v);
  return {
    limit: z.preprocess(blankAsMissing, z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit)),
    offset: z.preprocess(blankAsMissing, z.coerce.number().int().min(0).default(0)),
  };
}
