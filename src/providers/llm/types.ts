/**
 * The language-model port, shaped by what this service does with a model: a chat turn that may
 * ask for tool calls, and structured JSON answers (see structured.ts). Adapters speak the wire
 * protocols (openai-compatible.ts, anthropic.ts); nothing outside src/providers/llm knows them.
 */
export interface LlmToolCall {
  id: string;
  name: string;
  /** Parsed arguments; a model that sent unparseable arguments yields `{}` plus `argumentsError`. */
  arguments: Record<string, unknown>;
  argumentsError?: string;
}

/** A picture shown to a vision-capable model with a user message (base64, no data: prefix). */
export interface LlmImage {
  mediaType: 'image/png' | 'image/jpeg';
  data: string;
}

export type LlmMessage =
  | { role: 'user'; content: string; images?: LlmImage[] }
  | { role: 'assistant'; content: string; toolCalls?: LlmToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

export interface LlmToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/** Which configured model answers: CHAT_MODEL, RECIPE_MODEL or VISION_MODEL (reads images). */
export type LlmPurpose = 'chat' | 'recipe' | 'vision';

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export interface ChatRequest {
  purpose: LlmPurpose;
  system: string;
  messages: LlmMessage[];
  tools?: LlmToolSpec[];
  /** Ask the server for a JSON object answer where the protocol supports it. */
  json?: boolean;
  /**
   * With `json`: the JSON Schema the answer must follow. Servers that support structured output are
   * held to it (OpenAI-compatible `response_format: json_schema`, which OpenAI, Ollama, vLLM and
   * llama.cpp accept; Anthropic through a forced tool); others get plain JSON mode.
   */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  /**
   * Stream the answer: the adapter asks the server for server-sent events and calls this with each
   * piece of text as it arrives. The result is the same as without streaming.
   */
  onText?: (delta: string) => void;
}

export interface ChatResult {
  text: string;
  toolCalls: LlmToolCall[];
  usage: LlmUsage;
  model: string;
}

export interface LlmProvider {
  /** One model turn. Throws upstreamTimeout (504), upstreamError (502) or notConfigured (503). */
  chat(request: ChatRequest): Promise<ChatResult>;
  /** Throws notConfigured naming the missing setting when `purpose` has no model. */
  assertConfigured(purpose: LlmPurpose): void;
  isConfigured(purpose: LlmPurpose): boolean;
}

export const emptyUsage = (): LlmUsage => ({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });

export function addUsage(a: LlmUsage, b: LlmUsage): LlmUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}
