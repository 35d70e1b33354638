import type { LlmProvider } from '../../providers/llm/index.ts';
import type { ModelPrices } from '../../platform/config.ts';
import { meteredLlm } from '../../platform/observability/metered-llm.ts';
import type { Metrics, ModelFeature } from '../../platform/observability/metrics.ts';
import { spentAnyway, type DailyAllowances } from '../../platform/quotas/daily-allowance.ts';
import type { ChatRepository } from './repository.ts';

/** How many model calls a user may make per UTC day (by tier; null: unlimited). */
export interface ModelCallBudget {
  allowances: DailyAllowances;
  limitFor(userId: string): Promise<number | null>;
}

/** Where model calls are counted for operators: metrics and the estimated price per model. */
export interface ModelMeter {
  metrics: Metrics;
  prices: ModelPrices;
}

/**
 * Token accounting: every model call made for a user is added to llm_usage (per UTC day, feature
 * and model, with its estimated cost) and to the metrics. Chat, recipe generation and plan
 * reranking all go through `forUser`.
 */
export class LlmUsageService {
  readonly #repo: ChatRepository;
  readonly #now: () => Date;
  readonly #meter: ModelMeter;
  readonly #budget: ModelCallBudget | undefined;
  constructor(repo: ChatRepository, now: () => Date, meter: ModelMeter, budget?: ModelCallBudget) {
    this.#repo = repo;
    this.#now = now;
    this.#meter = meter;
    this.#budget = budget;
  }

  /**
   * The provider, with each call taken from the user's daily model-call allowance (every AI route
   * goes through here: chat rounds, recipe generation, plan reranking) and each successful call
   * recorded. A call that failed without costing anything is given back; a timed-out one counts.
   */
  forUser(base: LlmProvider, userId: string, feature: ModelFeature): LlmProvider {
    const llm = meteredLlm(base, feature, this.#meter, (call) =>
      this.record(userId, feature, call.model, { ...call.usage, costUsd: call.costUsd }),
    );
    let limit: Promise<number | null> | undefined;
    return {
      isConfigured: (purpose) => llm.isConfigured(purpose),
      assertConfigured: (purpose) => llm.assertConfigured(purpose),
      chat: async (request) => {
        llm.assertConfigured(request.purpose);
        const budget = this.#budget;
        const startedAt = this.#now();
        if (budget) {
          limit ??= budget.limitFor(userId);
          await budget.allowances.take(userId, 'model_call', await limit, startedAt);
        }
        let result;
        try {
          result = await llm.chat(request);
        } catch (error) {
          if (budget && !spentAnyway(error))
            await budget.allowances.giveBack(userId, 'model_call', startedAt);
          throw error;
        }
        return result;
      },
    };
  }

  record(
    userId: string,
    feature: ModelFeature,
    model: string,
    usage: { inputTokens: number; outputTokens: number; costUsd: number },
  ): Promise<void> {
    return this.#repo.recordLlmUsage({
      userId,
      day: this.#now().toISOString().slice(0, 10),
      purpose: feature,
      model,
      calls: 1,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      costUsd: usage.costUsd,
    });
  }

  /** The user's recorded usage, oldest day first. */
  list(userId: string) {
    return this.#repo.llmUsage(userId);
  }
}
