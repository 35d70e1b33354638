import { notConfigured } from '../../platform/errors.ts';
import { anthropicChat } from './anthropic.ts';
import { toolCallsFromText } from './text-tool-calls.ts';
import { openAiChat, type WireAnswer, type WireSettings } from './openai-compatible.ts';
import type { ChatRequest, ChatResult, LlmProvider, LlmPurpose } from './types.ts';

export interface LlmSettings {
  provider: 'openai' | 'anthropic';
  baseUrl: string | undefined;
  apiKey: string | undefined;
  timeoutMs: number;
  chatModel: string | undefined;
  recipeModel: string | undefined;
  /** A model that reads images (flyer pages without text); never defaulted from a text model. */
  visionModel?: string | undefined;
}

const MODEL_SETTING: Record<LlmPurpose, string> = {
  chat: 'CHAT_MODEL',
  recipe: 'RECIPE_MODEL (or CHAT_MODEL)',
  vision: 'VISION_MODEL',
};
const FEATURE: Record<LlmPurpose, string> = {
  chat: 'The AI assistant',
  recipe: 'AI generation',
  vision: 'Reading images with a model',
};

const OPENAI_BASE = 'https://api.openai.com/v1';
const ANTHROPIC_BASE = 'https://api.anthropic.com/v1';

/**
 * Builds the provider from the LLM settings of contract §1. Nothing is checked at start-up: a
 * feature that needs a model answers 503 not_configured naming the missing setting when called.
 *   - openai: LLM_BASE_URL (any OpenAI-compatible server), or LLM_API_KEY alone for api.openai.com;
 *   - anthropic: LLM_API_KEY for api.anthropic.com, or LLM_BASE_URL for a compatible server.
 */
export function createLlmProvider(settings: LlmSettings): LlmProvider {
  const wire = wireSettings(settings);
  const modelFor = (purpose: LlmPurpose) =>
    ({ chat: settings.chatModel, recipe: settings.recipeModel, vision: settings.visionModel })[purpose];

  const missingSetting = (purpose: LlmPurpose): string | undefined => {
    if (!modelFor(purpose)) return MODEL_SETTING[purpose];
    if (!wire)
      return settings.provider === 'anthropic' ? 'LLM_API_KEY' : 'LLM_BASE_URL (or LLM_API_KEY for OpenAI)';
    return undefined;
  };

  const assertConfigured = (purpose: LlmPurpose) => {
    const missing = missingSetting(purpose);
    if (missing) throw notConfigured(missing, FEATURE[purpose]);
  };

  return {
    isConfigured: (purpose) => missingSetting(purpose) === undefined,
    assertConfigured,
    async chat(request: ChatRequest): Promise<ChatResult> {
      assertConfigured(request.purpose);
      const model = modelFor(request.purpose)!;
      const speak = settings.provider === 'anthropic' ? anthropicChat : openAiChat;
      const answer: WireAnswer = await speak(wire!, model, request);
      if (request.tools?.length && answer.toolCalls.length === 0) {
        const fromText = toolCallsFromText(answer.text, request.tools);
        if (fromText.length) return { text: '', toolCalls: fromText, usage: answer.usage, model };
      }
      return { ...answer, model };
    },
  };
}

function wireSettings(settings: LlmSettings): WireSettings | undefined {
  const base = settings.baseUrl ?? (settings.apiKey ? defaultBase(settings.provider) : undefined);
  if (!base) return undefined;
  return { baseUrl: base, apiKey: settings.apiKey, timeoutMs: settings.timeoutMs };
}

const defaultBase = (provider: LlmSettings['provider']) =>
  provider === 'anthropic' ? ANTHROPIC_BASE : OPENAI_BASE;
