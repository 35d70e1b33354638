import client from 'prom-client';

/** What model work is for, as operators read the bill: one label value each. */
export type ModelFeature = 'chat' | 'recipe' | 'plan' | 'flyer';

/** A figure read when Prometheus scrapes (queue depth, pool use): registered by whoever owns it. */
export type GaugeReader = () => Promise<{ labels: Record<string, string>; value: number }[]>;

/**
 * The service's Prometheus metrics, one registry per app (tests build several apps in a process,
 * so nothing goes to prom-client's global registry). Counters and histograms are written where
 * the work happens; gauges are read at scrape time from their owner.
 */
export class Metrics {
  readonly registry = new client.Registry();
  readonly #requests: client.Counter<'method' | 'route' | 'status'>;
  readonly #latency: client.Histogram<'method' | 'route' | 'status'>;
  readonly #rateLimited: client.Counter<'route'>;
  readonly #modelCalls: client.Counter<'feature' | 'model' | 'outcome'>;
  readonly #modelTokens: client.Counter<'feature' | 'model' | 'direction'>;
  readonly #modelCost: client.Counter<'feature' | 'model'>;

  constructor() {
    client.collectDefaultMetrics({ register: this.registry, prefix: 'mise_' });
    const registers = [this.registry];
    this.#requests = new client.Counter({
      name: 'mise_http_requests_total',
      help: 'HTTP requests answered, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.#latency = new client.Histogram({
      name: 'mise_http_request_duration_seconds',
      help: 'Time to answer HTTP requests, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.#rateLimited = new client.Counter({
      name: 'mise_rate_limit_refusals_total',
      help: 'Requests refused with 429 (request rate limits and daily allowances), by route',
      labelNames: ['route'],
      registers,
    });
    this.#modelCalls = new client.Counter({
      name: 'mise_model_calls_total',
      help: 'Language-model calls, by feature, model and outcome (ok or error)',
      labelNames: ['feature', 'model', 'outcome'],
      registers,
    });
    this.#modelTokens = new client.Counter({
      name: 'mise_model_tokens_total',
      help: 'Language-model tokens, by feature, model and direction (input or output)',
      labelNames: ['feature', 'model', 'direction'],
      registers,
    });
    this.#modelCost = new client.Counter({
      name: 'mise_model_cost_usd_total',
      help: 'Estimated language-model cost in USD (MODEL_PRICES), by feature and model',
      labelNames: ['feature', 'model'],
      registers,
    });
  }

  request(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.#requests.inc(labels);
    this.#latency.observe(labels, seconds);
    if (status === 429) this.#rateLimited.inc({ route });
  }

  modelCall(
    feature: ModelFeature,
    model: string,
    outcome: 'ok' | 'error',
    usage?: { inputTokens: number; outputTokens: number; costUsd: number },
  ): void {
    this.#modelCalls.inc({ feature, model, outcome });
    if (!usage) return;
    this.#modelTokens.inc({ feature, model, direction: 'input' }, usage.inputTokens);
    this.#modelTokens.inc({ feature, model, direction: 'output' }, usage.outputTokens);
    this.#modelCost.inc({ feature, model }, usage.costUsd);
  }

  /** A gauge whose values are read from `read` at each scrape; a failing read leaves it empty. */
  gauge(name: string, help: string, labelNames: string[], read: GaugeReader): void {
    new client.Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          for (const { labels, value } of await read()) this.set(labels, value);
        } catch {
          // The database is away: the scrape still answers, without this figure.
        }
      },
    });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
