import type { LlmProvider, LlmUsage } from '../../providers/llm/types.ts';
import type { ModelPrices } from '../config.ts';
import type { Metrics, ModelFeature } from './metrics.ts';
import { estimateModelCost } from './model-cost.ts';

/** Told of every finished model call with its estimated cost (spend records). */
export type ModelCallListener = (call: { model: string; usage: LlmUsage; costUsd: number }) => Promise<void>;

/**
 * The provider with each call counted in the metrics under `feature` (calls, tokens, estimated
 * cost); `onCall` hears of each successful call, after the metrics.
 */
export function meteredLlm(
  llm: LlmProvider,
  feature: ModelFeature,
  meter: { metrics: Metrics; prices: ModelPrices },
  onCall?: ModelCallListener,
): LlmProvider {
  return {
    isConfigured: (purpose) => llm.isConfigured(purpose),
    assertConfigured: (purpose) => llm.assertConfigured(purpose),
    chat: async (request) => {
      llm.assertConfigured(request.purpose);
      let result;
      try {
        result = await llm.chat(request);
      } catch (error) {
        meter.metrics.modelCall(feature, 'unknown', 'error');
        throw error;
      }
      const costUsd = estimateModelCost(meter.prices, result.model, result.usage);
      meter.metrics.modelCall(feature, result.model, 'ok', { ...result.usage, costUsd });
      await onCall?.({ model: result.model, usage: result.usage, costUsd });
      return result;
    },
  };
}
