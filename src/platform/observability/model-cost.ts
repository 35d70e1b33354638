import type { ModelPrices } from '../config.ts';

/**
 * Estimated USD cost of one model call from MODEL_PRICES (per million tokens). A model the
 * setting does not name costs the `*` entry, else nothing: a local model (Ollama) is free.
 */
export function estimateModelCost(
  prices: ModelPrices,
  model: string,
  usage: { inputTokens: number; outputTokens: number },
): number {
  const price = prices.get(model) ?? prices.get(stripDateSuffix(model)) ?? prices.get('*');
  if (!price) return 0;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}

/** Servers answer with dated model names (gpt-4o-mini-2024-07-18) for the name asked (gpt-4o-mini). */
function stripDateSuffix(model: string): string {
  return model.replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, '');
}
