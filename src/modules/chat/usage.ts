import type { LlmProvider, LlmUsage } from '../../providers/llm/index.ts';
import type { ChatRepository } from './repository.ts';

/**
 * Token accounting: every model call made for a user is added to llm_usage (per UTC day, purpose
 * and model). Chat, recipe generation and plan reranking all go through `forUser`.
 */
export class LlmUsageService {
  readonly #repo: ChatRepository;
  readonly #now: () => Date;
  constructor(repo: ChatRepository, now: () => Date) {
    this.#repo = repo;
    this.#now = now;
  }

  /** The provider, with each successful call recorded against the user. */
  forUser(llm: LlmProvider, userId: string): LlmProvider {
    return {
      isConfigured: (purpose) => llm.isConfigured(purpose),
      assertConfigured: (purpose) => llm.assertConfigured(purpose),
      chat: async (request) => {
        const result = await llm.chat(request);
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
