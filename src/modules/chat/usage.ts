import type { LlmProvider, LlmUsage } from '../../providers/llm/index.ts';
import { spentAnyway, type DailyAllowances } from '../../platform/quotas/daily-allowance.ts';
import type { ChatRepository } from './repository.ts';

/** How many model calls a user may make per UTC day (by tier; null: unlimited). */
export interface ModelCallBudget {
  allowances: DailyAllowances;
  limitFor(userId: string): Promise<number | null>;
}

/**
 * Token accounting: every model call made for a user is added to llm_usage (per UTC day, purpose
 * and model). Chat, recipe generation and plan reranking all go through `forUser`.
 */
export class LlmUsageService {
  readonly #repo: ChatRepository;
  readonly #now: () => Date;
  readonly #budget: ModelCallBudget | undefined;
  constructor(repo: ChatRepository, now: () => Date, budget?: ModelCallBudget) {
    this.#repo = repo;
    this.#now = now;
    this.#budget = budget;
  }

  /**
   * The provider, with each call taken from the user's daily model-call allowance (every AI route
   * goes through here: chat rounds, recipe generation, plan reranking) and each successful call
   * recorded. A call that failed without costing anything is given back; a timed-out one counts.
   */
  forUser(llm: LlmProvider, userId: string): LlmProvider {
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
        await this.record(userId, request.purpose, result.model, result.usage);
        return result;
      },
    };
  }

  record(userId: string, purpose: string, model: string, usage: LlmUsage): Promise<void> {
    return this.#repo.recordLlmUsage({
      userId,
      day: this.#now().toISOString().slice(0, 10),
      purpose,
      model,
      calls: 1,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
    });
  }

  /** The user's recorded usage, oldest day first. */
  list(userId: string) {
    return this.#repo.llmUsage(userId);
  }
}
