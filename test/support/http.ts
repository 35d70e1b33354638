/** A thin fetch wrapper for tests: real HTTP against the running test service. */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string | undefined;
  body?: unknown;
  rawBody?: string | Buffer | FormData;
  headers?: Record<string, string>;
  cookie?: string;
}

export function client(baseUrl: string) {
  return async function api<T = any>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.cookie) headers.cookie = options.cookie;
    let body: RequestInit['body'];
    if (options.rawBody !== undefined) {
      body = options.rawBody as RequestInit['body'];
    } else if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(baseUrl + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text && /json/.test(response.headers.get('content-type') ?? '')) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };
}

export type Api = ReturnType<typeof client>;

/** Asserts the contract's problem document shape and answers it. */
export function expectProblem(response: ApiResponse, status: number, code: string) {
  const ok =
    response.status === status &&
    (response.headers.get('content-type') ?? '').startsWith('application/problem+json') &&
    response.body?.code === code &&
    response.body?.status === status &&
    typeof response.body?.title === 'string' &&
    typeof response.body?.detail === 'string' &&
    typeof response.body?.type === 'string';
  if (!ok) {
    throw new Error(
      `expected problem ${status} ${code}, got ${response.status} ${response.headers.get('content-type')} ${response.text}`,
    );
  }
  return response.body;
}
