import { describe, expect, it } from 'vitest';
import { parseModelPrices } from '../config.ts';
import { estimateModelCost } from './model-cost.ts';

describe('estimated model cost', () => {
  const prices = parseModelPrices('gpt-4o-mini=0.15/0.6,claude-sonnet-4=3/15')!;

  it('prices input and output tokens per million', () => {
    expect(
      estimateModelCost(prices, 'claude-sonnet-4', { inputTokens: 2_000, outputTokens: 1_000 }),
    ).toBeCloseTo(0.021, 9);
  });

  it('knows a dated model name by the name it was asked for', () => {
    expect(
      estimateModelCost(prices, 'gpt-4o-mini-2024-07-18', { inputTokens: 1_000_000, outputTokens: 0 }),
    ).toBe(0.15);
  });

  it('charges an unnamed model the * price, or nothing (a local model)', () => {
    expect(estimateModelCost(prices, 'llama3.1:8b', { inputTokens: 1000, outputTokens: 1000 })).toBe(0);
    const withDefault = parseModelPrices('*=1/2')!;
    expect(
      estimateModelCost(withDefault, 'llama3.1:8b', { inputTokens: 1_000_000, outputTokens: 1_000_000 }),
    ).toBe(3);
  });

  it('rejects malformed price lists', () => {
    for (const bad of ['gpt', 'gpt=1', 'gpt=a/b', '=1/2', 'gpt=1/2/3'])
      expect(parseModelPrices(bad)).toBeUndefined();
    expect(parseModelPrices('')!.size).toBe(0);
  });
});
