import { existsSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { parseTrustProxy, type TrustProxy } from './http/client-address.ts';

/**
 * Every setting of contract §1, validated once at start-up. A bad value stops the service with a
 * message naming the variable (see loadConfig).
 */
const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = z.coerce.number().int().positive();
const optionalUrl = z.url({ protocol: /^https?$/ }).optional();

export type ModelPrices = ReadonlyMap<string, { input: number; output: number }>;

const MODEL_PRICES_FORMAT =
  'must be a comma-separated list of model=input/output prices in USD per million tokens (gpt-4o-mini=0.15/0.6,*=1/3)';

/** `model=input/output,...` (USD per million tokens); undefined when malformed. */
export function parseModelPrices(value: string): ModelPrices | undefined {
  const prices = new Map<string, { input: number; output: number }>();
  for (const part of value.split(',').map((p) => p.trim())) {
    if (!part) continue;
    const match = /^(.+?)=(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(part);
    if (!match) return undefined;
    prices.set(match[1]!.trim(), { input: Number(match[2]), output: Number(match[3]) });
  }
  return prices;
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  COOKIE_SECURE: booleanFromEnv.optional(),
  ADMIN_EMAILS: z.string().default(''),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(128).optional(),
  RATE_LIMIT_MAX: positiveInt.default(300),
  RATE_LIMIT_WINDOW: z.string().default('1 minute'),
  AUTH_RATE_LIMIT_MAX: positiveInt.default(10),
  ADDRESS_RATE_LIMIT_MAX: positiveInt.optional(),
  TRUST_PROXY: z.string().optional(),
  REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LLM_PROVIDER: z.enum(['openai', 'anthropic']).default('openai'),
  LLM_BASE_URL: optionalUrl,
  LLM_API_KEY: z.string().optional(),
  LLM_TIMEOUT_MS: positiveInt.default(60_000),
  CHAT_MODEL: z.string().min(1).optional(),
  RECIPE_MODEL: z.string().min(1).optional(),
  VISION_MODEL: z.string().min(1).optional(),
  CHAT_MAX_TOOL_ROUNDS: z.coerce.number().int().min(1).max(20).default(5),
  IMAGE_GEN_URL: optionalUrl,
  IMAGE_GEN_TOKEN: z.string().optional(),
  IMAGE_GEN_TIMEOUT_MS: positiveInt.default(15_000),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_API_BASE: optionalUrl,
  STRIPE_TIMEOUT_MS: positiveInt.default(15_000),
  PAYMENT_WEBHOOK_SECRET: z.string().min(1).optional(),
  PRICE_ID_PRO: z.string().min(1).optional(),
  PRICE_ID_FAMILY: z.string().min(1).optional(),
  UPLOAD_MAX_BYTES: positiveInt.default(20 * 1024 * 1024),
  IMAGE_JOBS_PER_DAY_FREE: z.coerce.number().int().min(0).default(3),
  IMAGE_JOBS_PER_DAY_PAID: z.coerce.number().int().min(0).default(50),
  MODEL_CALLS_PER_DAY_FREE: z.coerce.number().int().min(0).default(60),
  MODEL_CALLS_PER_DAY_PAID: z.coerce.number().int().min(0).default(1000),
  CANDIDATE_MIN_CONFIDENCE: z.coerce.number().min(0).max(1).default(0.5),
  FLYER_MAX_PAGES: positiveInt.default(100),
  FLYER_MAX_IMAGE_PIXELS: positiveInt.default(50_000_000),
  FLYER_PAGE_TIMEOUT_MS: positiveInt.default(60_000),
  FLYER_MEMORY_MB: z.coerce.number().int().min(64).default(1024),
  FILE_STORAGE: z.enum(['database', 'disk']).default('database'),
  REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(15_000),
  RECIPE_IMPORT_ALLOWED_NETWORKS: z
    .string()
    .default('')
    .refine(
      (v) => v.split(',').every((c) => !c.trim() || ipaddr.isValidCIDR(c.trim())),
      'must be a comma-separated list of CIDR networks (10.1.2.0/24, fd00::/8)',
    ),
  RECIPE_IMPORT_MAX_BYTES: positiveInt.default(5_000_000),
  RECIPE_IMPORT_TIMEOUT_MS: positiveInt.default(10_000),
  CORS_ORIGINS: z
    .string()
    .default('')
    .refine(
      (v) =>
        v
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean)
          .every((o) => /^https?:\/\/[^/\s*]+\/?$/i.test(o)),
      'must be a comma-separated list of origins such as https://app.example.com (no paths, no *)',
    ),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SEARCH_INDEX_BUDGET_MB: positiveInt.default(256),
  MODEL_PRICES: z
    .string()
    .default('')
    .refine((v) => parseModelPrices(v) !== undefined, MODEL_PRICES_FORMAT),
  RUN_WORKERS: booleanFromEnv.default(true),
  SEED_CATALOG: booleanFromEnv.default(true),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  /** Resolved signing key; see resolveJwtSecret for how it is obtained outside production. */
  jwtSecret: string | undefined;
  cookieSecure: boolean;
  adminEmails: ReadonlySet<string>;
  /** Password of the ADMIN_EMAILS accounts the service creates at start (never logged). */
  adminPassword: string | undefined;
  rateLimit: { max: number; window: string; authMax: number; addressMax: number };
  /** Proxies whose X-Forwarded-For is believed (client-address.ts); false: none. */
  trustProxy: TrustProxy;
  /** A refresh token presented again within this many seconds gets a fresh pair (two tabs). */
  refreshGraceSeconds: number;
  logLevel: Env['LOG_LEVEL'];
  llm: {
    provider: Env['LLM_PROVIDER'];
    baseUrl: string | undefined;
    apiKey: string | undefined;
    timeoutMs: number;
    chatModel: string | undefined;
    recipeModel: string | undefined;
    visionModel: string | undefined;
    maxToolRounds: number;
  };
  imageGen: { url: string | undefined; token: string | undefined; timeoutMs: number };
  stripe: {
    secretKey: string | undefined;
    apiBase: string | undefined;
    timeoutMs: number;
    webhookSecret: string | undefined;
    priceIds: { pro: string | undefined; family: string | undefined };
  };
  uploadMaxBytes: number;
  /** Costly work per user and UTC day, by tier (Free; Pro and Family). */
  quotas: { imageJobsFree: number; imageJobsPaid: number; modelCallsFree: number; modelCallsPaid: number };
  /** Flyer candidates below this are kept for audit but not listed unless asked. */
  candidateMinConfidence: number;
  /** What reading one flyer may cost (pages, decoded image size, time per step, memory). */
  flyerLimits: { maxPages: number; maxImagePixels: number; stepTimeoutMs: number; memoryMb: number };
  /** Longest time a client may take to send a whole request (headers and body); slow senders are cut off. */
  requestTimeoutMs: number;
  /** PostgreSQL statement_timeout of the service's connections; 0 = none. Not enforced by PGlite. */
  dbStatementTimeoutMs: number;
  /** Recipe import by URL: how much and how long a page fetch may take; non-public networks allowed. */
  recipeImport: { allowedNetworks: string[]; maxBytes: number; timeoutMs: number };
  /** Origins whose browsers may call the API with credentials (CORS); empty: same-origin only. */
  corsOrigins: string[];
  /** Where uploaded flyers live: the shared database (any host reads them) or DATA_DIR/uploads (one host). */
  fileStorage: Env['FILE_STORAGE'];
  /** Bearer token of GET /api/metrics; undefined: metrics are off (404). */
  metricsToken: string | undefined;
  /** Heap the in-memory recipe search index may take; past it PostgreSQL answers searches. */
  searchIndexBudgetBytes: number;
  /** USD per million input and output tokens, by model name ('*' for any other model). */
  modelPrices: ModelPrices;
  runWorkers: boolean;
  seedCatalog: boolean;
}

export class ConfigError extends Error {}

function blankToUndefined(source: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && value.trim() !== '') out[key] = value.trim();
  }
  return out;
}

/**
 * Settings from a `.env` file (in the working directory unless told), for a self-hoster who keeps
 * them in one file. The real environment wins over the file. Answers whether a file was read.
 */
export function loadDotEnv(file = '.env'): boolean {
  if (!existsSync(file)) return false;
  process.loadEnvFile(file);
  return true;
}

/**
 * What the service's heap needs beside the search index: its own objects and the garbage of its
 * requests between collections. `npm start` limits the heap (--max-old-space-size=1024), because
 * V8 otherwise lets garbage grow to several times what is live on a large machine (docs/deployment.md).
 */
export const HEAP_BESIDE_SEARCH_INDEX_MB = 512;

/**
 * Stops a service process whose heap limit (`heapLimitBytes`, V8's) cannot hold the search index's
 * budget beside the rest: it would fail when the index grew, not at start. Only the API process
 * holds the index, so workers and commands do not ask.
 */
export function checkHeapHoldsSearchIndex(
  config: Pick<Config, 'searchIndexBudgetBytes'>,
  heapLimitBytes = getHeapStatistics().heap_size_limit,
): void {
  const budgetMb = Math.ceil(config.searchIndexBudgetBytes / 1048576);
  const neededMb = budgetMb + HEAP_BESIDE_SEARCH_INDEX_MB;
  if (heapLimitBytes >= neededMb * 1048576) return;
  throw new ConfigError(
    `Invalid configuration:\n  SEARCH_INDEX_BUDGET_MB: ${budgetMb} MB of search index needs a heap limit of at least ${neededMb} MB, and this process has ${Math.floor(heapLimitBytes / 1048576)} MB: start it with node --max-old-space-size=${neededMb} (npm start sets 1024), or lower the budget`,
  );
}

/** The service's settings: from `source`, or from the environment and a `.env` file when none is given. */
export function parseConfig(source?: NodeJS.ProcessEnv): Config {
  if (source === undefined) loadDotEnv();
  const parsed = envSchema.safeParse(blankToUndefined(source ?? process.env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  if (typeof trustProxy === 'object' && !Array.isArray(trustProxy))
    throw new ConfigError(`Invalid configuration:\n  TRUST_PROXY: ${trustProxy.error}`);
  if (e.NODE_ENV === 'production' && !e.JWT_SECRET) {
    throw new ConfigError('Invalid configuration:\n  JWT_SECRET: required when NODE_ENV=production');
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    redisUrl: e.REDIS_URL,
    jwtSecret: e.JWT_SECRET,
    cookieSecure: e.COOKIE_SECURE ?? e.NODE_ENV === 'production',
    adminEmails: new Set(
      e.ADMIN_EMAILS.split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
    adminPassword: e.ADMIN_PASSWORD,
    rateLimit: {
      max: e.RATE_LIMIT_MAX,
      window: e.RATE_LIMIT_WINDOW,
      authMax: e.AUTH_RATE_LIMIT_MAX,
      addressMax: e.ADDRESS_RATE_LIMIT_MAX ?? e.RATE_LIMIT_MAX * 10,
    },
    trustProxy,
    refreshGraceSeconds: e.REFRESH_REUSE_GRACE_SECONDS,
    logLevel: e.LOG_LEVEL,
    llm: {
      provider: e.LLM_PROVIDER,
      baseUrl: e.LLM_BASE_URL,
      apiKey: e.LLM_API_KEY,
      timeoutMs: e.LLM_TIMEOUT_MS,
      chatModel: e.CHAT_MODEL,
      recipeModel: e.RECIPE_MODEL ?? e.CHAT_MODEL,
      visionModel: e.VISION_MODEL,
      maxToolRounds: e.CHAT_MAX_TOOL_ROUNDS,
    },
    imageGen: { url: e.IMAGE_GEN_URL, token: e.IMAGE_GEN_TOKEN, timeoutMs: e.IMAGE_GEN_TIMEOUT_MS },
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      apiBase: e.STRIPE_API_BASE,
      timeoutMs: e.STRIPE_TIMEOUT_MS,
      webhookSecret: e.PAYMENT_WEBHOOK_SECRET,
      priceIds: { pro: e.PRICE_ID_PRO, family: e.PRICE_ID_FAMILY },
    },
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    quotas: {
      imageJobsFree: e.IMAGE_JOBS_PER_DAY_FREE,
      imageJobsPaid: e.IMAGE_JOBS_PER_DAY_PAID,
      modelCallsFree: e.MODEL_CALLS_PER_DAY_FREE,
      modelCallsPaid: e.MODEL_CALLS_PER_DAY_PAID,
    },
    candidateMinConfidence: e.CANDIDATE_MIN_CONFIDENCE,
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((o) => o.trim().replace(/\/$/, ''))
      .filter(Boolean),
    recipeImport: {
      allowedNetworks: e.RECIPE_IMPORT_ALLOWED_NETWORKS.split(',')
        .map((c) => c.trim())
        .filter(Boolean),
      maxBytes: e.RECIPE_IMPORT_MAX_BYTES,
      timeoutMs: e.RECIPE_IMPORT_TIMEOUT_MS,
    },
    flyerLimits: {
      maxPages: e.FLYER_MAX_PAGES,
      maxImagePixels: e.FLYER_MAX_IMAGE_PIXELS,
      stepTimeoutMs: e.FLYER_PAGE_TIMEOUT_MS,
      memoryMb: e.FLYER_MEMORY_MB,
    },
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    dbStatementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    fileStorage: e.FILE_STORAGE,
    metricsToken: e.METRICS_TOKEN,
    searchIndexBudgetBytes: e.SEARCH_INDEX_BUDGET_MB * 1024 * 1024,
    modelPrices: parseModelPrices(e.MODEL_PRICES) ?? new Map(),
    runWorkers: e.RUN_WORKERS,
    seedCatalog: e.SEED_CATALOG,
  };
}
