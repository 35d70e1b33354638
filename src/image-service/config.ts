import { z } from 'zod';

/** Settings of the reference image microservice (docs/images.md, "The reference image microservice"). */
const envSchema = z.object({
  IMAGE_SERVICE_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  IMAGE_SERVICE_HOST: z.string().min(1).default('0.0.0.0'),
  IMAGE_SERVICE_TOKEN: z.string().min(1).optional(),
  IMAGE_SERVICE_DATA_DIR: z.string().min(1).default('./data/image-service'),
  IMAGE_SERVICE_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  IMAGE_SERVICE_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  IMAGE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  IMAGE_API_KEY: z.string().min(1).optional(),
  IMAGE_MODEL: z.string().min(1).default('gpt-image-1'),
  IMAGE_SIZE: z
    .string()
    .regex(/^\d{2,5}x\d{2,5}$/, 'must look like 1024x1024')
    .default('1024x1024'),
  IMAGE_RESPONSE_FORMAT: z.enum(['b64_json', 'url']).optional(),
  IMAGE_API_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
});

export interface ImageServiceConfig {
  port: number;
  host: string;
  /** Bearer token callers must send (the main service's IMAGE_GEN_TOKEN); unset: no check. */
  token: string | undefined;
  dataDir: string;
  /** Base of result URLs; default http://localhost:<port>. */
  publicUrl: string | undefined;
  concurrency: number;
  images: {
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string;
    size: string;
    responseFormat: 'b64_json' | 'url' | undefined;
    timeoutMs: number;
  };
}

export function parseImageServiceConfig(source: NodeJS.ProcessEnv = process.env): ImageServiceConfig {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v.trim() !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.IMAGE_SERVICE_PORT,
    host: e.IMAGE_SERVICE_HOST,
    token: e.IMAGE_SERVICE_TOKEN,
    dataDir: e.IMAGE_SERVICE_DATA_DIR,
    publicUrl: e.IMAGE_SERVICE_PUBLIC_URL,
    concurrency: e.IMAGE_SERVICE_CONCURRENCY,
    images: {
      baseUrl: e.IMAGE_API_BASE,
      apiKey: e.IMAGE_API_KEY,
      model: e.IMAGE_MODEL,
      size: e.IMAGE_SIZE,
      responseFormat: e.IMAGE_RESPONSE_FORMAT,
      timeoutMs: e.IMAGE_API_TIMEOUT_MS,
    },
  };
}
