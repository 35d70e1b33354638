/**
 * Any OpenAI-compatible images endpoint (`POST {base}/images/generations`): OpenAI, LocalAI,
 * vLLM-style servers. Used by the reference image microservice (src/image-service).
 */
export interface OpenAiImagesSettings {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  size: string;
  /** Sent as `response_format` when set (`b64_json` or `url`); gpt-image models refuse it. */
  responseFormat: 'b64_json' | 'url' | undefined;
  timeoutMs: number;
}

export interface GeneratedImage {
  bytes: Buffer;
  /** png, jpg or webp, from the image's own signature. */
  extension: 'png' | 'jpg' | 'webp';
}

export class ImageGenerationError extends Error {}

export class OpenAiImagesClient {
  readonly #settings: OpenAiImagesSettings;
  constructor(settings: OpenAiImagesSettings) {
    this.#settings = settings;
  }

  async generate(prompt: string): Promise<GeneratedImage> {
    const s = this.#settings;
    const body: Record<string, unknown> = { model: s.model, prompt, size: s.size, n: 1 };
    if (s.responseFormat) body.response_format = s.responseFormat;
    const answer = (await this.#fetchJson(`${s.baseUrl.replace(/\/+$/, '')}/images/generations`, body)) as {
      data?: Array<{ b64_json?: unknown; url?: unknown }>;
    };
    const first = answer.data?.[0];
    if (typeof first?.b64_json === 'string') return withExtension(Buffer.from(first.b64_json, 'base64'));
    if (typeof first?.url === 'string' && /^https?:\/\//.test(first.url)) {
      return withExtension(await this.#download(first.url));
    }
    throw new ImageGenerationError('The images endpoint answered without b64_json or url.');
  }

  async #fetchJson(url: string, body: unknown): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.#settings.apiKey) headers.authorization = `Bearer ${this.#settings.apiKey}`;
    const response = await this.#fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) {
      throw new ImageGenerationError(
        `The images endpoint answered ${response.status}: ${text.slice(0, 200)}`,
      );
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new ImageGenerationError('The images endpoint answered invalid JSON.');
    }
  }

  async #download(url: string): Promise<Buffer> {
    const response = await this.#fetch(url, { method: 'GET' });
    if (!response.ok) throw new ImageGenerationError(`Downloading the image answered ${response.status}.`);
    return Buffer.from(await response.arrayBuffer());
  }

  async #fetch(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(this.#settings.timeoutMs) });
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      throw new ImageGenerationError(
        timedOut ? 'The images endpoint did not answer in time.' : 'The images endpoint cannot be reached.',
      );
    }
  }
}

function withExtension(bytes: Buffer): GeneratedImage {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { bytes, extension: 'png' };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { bytes, extension: 'jpg' };
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return { bytes, extension: 'webp' };
  }
  throw new ImageGenerationError(
    'The images endpoint answered something that is not a PNG, JPEG or WebP image.',
  );
}
