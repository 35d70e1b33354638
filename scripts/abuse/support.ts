import { startServiceProcess, type ServiceProcess } from '../../test/support/processes.ts';
import { FAULT_PASSWORD, withDatabase } from '../faults/support.ts';

export { FAULT_PASSWORD, loginUser, registerUser, verdict, type Check } from '../faults/support.ts';

/** The admin every attack script's service creates at start (ADMIN_EMAILS + ADMIN_PASSWORD). */
export const ABUSE_ADMIN = 'abuse-admin@example.test';

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown> | undefined;
}

/** One JSON request; the body parsed when there is one. */
export async function request(
  service: ServiceProcess,
  method: string,
  path: string,
  init: { token?: string; body?: unknown; headers?: Record<string, string>; cookie?: string } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.cookie) headers.cookie = init.cookie;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(service.url + path, {
    method,
    headers,
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  let body: Record<string, unknown> | undefined;
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  } catch {
    body = { raw: text };
  }
  return { status: res.status, headers: res.headers, body };
}

/** The refresh cookie a response set, as a Cookie header value. */
export const refreshCookieOf = (headers: Headers): string | undefined =>
  headers
    .getSetCookie()
    .find((c) => c.startsWith('refresh_token='))
    ?.split(';')[0];

/**
 * Runs `attack` against a real service process on its own PostgreSQL database, configured as an
 * operator would (`env` on top of production-like defaults), and always stops it.
 */
export async function underAttack<T>(
  env: Record<string, string>,
  attack: (service: ServiceProcess, databaseUrl: string) => Promise<T>,
): Promise<T> {
  return withDatabase(async (databaseUrl) => {
    const service = await startServiceProcess({
      DATABASE_URL: databaseUrl,
      DATA_DIR: `/tmp/mise-abuse-${process.pid}`,
      NODE_ENV: 'test',
      SEED_CATALOG: 'false',
      RUN_WORKERS: 'false',
      ADMIN_EMAILS: ABUSE_ADMIN,
      ADMIN_PASSWORD: FAULT_PASSWORD,
      ...env,
    });
    try {
      return await attack(service, databaseUrl);
    } finally {
      await service.stop();
    }
  });
}
