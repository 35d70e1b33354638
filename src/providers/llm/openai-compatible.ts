import { randomUUID } from 'node:crypto';
import { malformedAnswer, parseArguments, postJson, upstreamStatusError } from './http.ts';
import { postSse } from './stream.ts';
import type { ChatRequest, LlmMessage, LlmToolCall, LlmUsage } from './types.ts';

/**
 * The OpenAI chat-completions protocol, spoken by OpenAI, Ollama, vLLM, llama.cpp, LM Studio and
 * OpenRouter: POST {baseUrl}/chat/completions. The base URL includes the version segment
 * (`http://localhost:11434/v1`).
 */
export interface WireSettings {
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
}

export interface WireAnswer {
  text: string;
  toolCalls: LlmToolCall[];
  usage: LlmUsage;
}

export async function openAiChat(
  settings: WireSettings,
  model: string,
  request: ChatRequest,
): Promise<WireAnswer> {
  const body: Record<string, unknown> = {
    model,
    messages: [{ role: 'system', content: request.system }, ...request.messages.map(toWire)],
    temperature: request.temperature ?? 0.4,
    ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
    ...(request.tools?.length
      ? {
          tools: request.tools.map((t) => ({
            type: 'function',
            function: { name: t.name, description: t.description, parameters: t.parameters },
          })),
        }
      : {}),
  };
  const headers: Record<string, string> = settings.apiKey
    ? { authorization: `Bearer ${settings.apiKey}` }
    : {};
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const send = (payload: Record<string, unknown>) =>
    postJson(url, headers, payload, { timeoutMs: settings.timeoutMs, signal: request.signal });

  if (request.onText) return streamChat(url, headers, body, settings, request);
  const accepted = acceptedFormats(settings);
  const formats = request.json ? jsonFormats(request.jsonSchema, accepted.get(model) ?? 0) : [undefined];
  let payload = body;
  let answer;
  for (const [i, format] of formats.entries()) {
    answer = await send(format ? { ...payload, response_format: format } : payload);
    // Reasoning models refuse a temperature: the same request again without it.
    if (answer.status === 400 && 'temperature' in payload && /temperature/i.test(answer.text)) {
      const { temperature: _t, ...rest } = payload;
      payload = rest;
      answer = await send(format ? { ...payload, response_format: format } : payload);
    }
    // A server that refuses a response format (400) is asked again with the next, plainer one,
    // and remembered: later calls start there. The caller repairs free-text JSON anyway.
    if (answer.status !== 400 || i === formats.length - 1) {
      if (answer.status === 200 && request.json) accepted.set(model, formatLevel(format));
      break;
    }
  }
  if (answer!.status < 200 || answer!.status >= 300)
    throw upstreamStatusError(answer!.status, answer!.json, answer!.text);
  return fromWire(answer!.json);
}

type ResponseFormat = Record<string, unknown> | undefined;

/** Per configured server, per model: the response format it accepted (0 schema, 1 JSON mode, 2 none). */
const ACCEPTED = new WeakMap<WireSettings, Map<string, number>>();

function acceptedFormats(settings: WireSettings): Map<string, number> {
  let byModel = ACCEPTED.get(settings);
  if (!byModel) ACCEPTED.set(settings, (byModel = new Map()));
  return byModel;
}

const formatLevel = (format: ResponseFormat) =>
  format === undefined ? 2 : format.type === 'json_schema' ? 0 : 1;

/** The response formats to try, strictest first, skipping those this server refused before. */
function jsonFormats(schema: ChatRequest['jsonSchema'], from: number): ResponseFormat[] {
  const all: ResponseFormat[] = [
    ...(schema
      ? [{ type: 'json_schema', json_schema: { name: schema.name, schema: schema.schema, strict: false } }]
      : []),
    { type: 'json_object' },
    undefined,
  ];
  return all.filter((format) => formatLevel(format) >= from);
}

function toWire(message: LlmMessage): Record<string, unknown> {
  if (message.role === 'tool') {
    return { role: 'tool', tool_call_id: message.toolCallId, name: message.name, content: message.content };
  }
  if (message.role === 'assistant' && message.toolCalls?.length) {
    return {
      role: 'assistant',
      content: message.content || null,
      tool_calls: message.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: JSON.stringify(c.arguments) },
      })),
    };
  }
  if (message.role === 'user' && message.images?.length) {
    return {
      role: 'user',
      content: [
        { type: 'text', text: message.content },
        ...message.images.map((image) => ({
          type: 'image_url',
          image_url: { url: `data:${image.mediaType};base64,${image.data}` },
        })),
      ],
    };
  }
  return { role: message.role, content: message.content };
}

interface WireResponse {
  choices?: {
    message?: {
      content?: string | null;
      tool_calls?: { id?: string; function?: { name?: string; arguments?: unknown } }[];
    };
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
}

function fromWire(json: unknown): WireAnswer {
  const response = json as WireResponse | undefined;
  const message = response?.choices?.[0]?.message;
  if (!message) throw malformedAnswer('no choices[0].message');
  const toolCalls: LlmToolCall[] = [];
  for (const call of message.tool_calls ?? []) {
    if (!call.function?.name) continue;
    const parsed = parseArguments(call.function.arguments);
    toolCalls.push({
      id: call.id || `call_${randomUUID()}`,
      name: call.function.name,
      arguments: parsed.value,
      ...(parsed.error ? { argumentsError: parsed.error } : {}),
    });
  }
  const input = response?.usage?.prompt_tokens ?? 0;
  const output = response?.usage?.completion_tokens ?? 0;
  return {
    text: typeof message.content === 'string' ? message.content : '',
    toolCalls,
    usage: {
      inputTokens: input,
      outputTokens: output,
      totalTokens: response?.usage?.total_tokens ?? input + output,
    },
  };
}

interface StreamChunk {
  choices?: {
    delta?: {
      content?: string | null;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
  }[];
  usage?: WireResponse['usage'] | null;
}

/** `stream: true`: text deltas go to onText; tool calls are assembled from their fragments. */
async function streamChat(
  url: string,
  headers: Record<string, string>,
  body: Record<string, unknown>,
  settings: WireSettings,
  request: ChatRequest,
): Promise<WireAnswer> {
  let text = '';
  const calls = new Map<number, { id: string; name: string; args: string }>();
  let usage: WireResponse['usage'] | undefined;
  const onData = (data: unknown) => {
    const chunk = data as StreamChunk;
    if (chunk.usage) usage = chunk.usage;
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) return;
    if (typeof delta.content === 'string' && delta.content) {
      text += delta.content;
      request.onText!(delta.content);
    }
    for (const part of delta.tool_calls ?? []) {
      const index = part.index ?? 0;
      const call = calls.get(index) ?? { id: '', name: '', args: '' };
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      if (part.function?.arguments) call.args += part.function.arguments;
      calls.set(index, call);
    }
  };
  const options = { timeoutMs: settings.timeoutMs, signal: request.signal };
  let answer = await postSse(
    url,
    headers,
    { ...body, stream: true, stream_options: { include_usage: true } },
    options,
    onData,
  );
  if (answer.status === 400) {
    const { temperature: _t, ...minimal } = body;
    answer = await postSse(url, headers, { ...minimal, stream: true }, options, onData);
  }
  if (answer.status < 200 || answer.status >= 300) {
    throw upstreamStatusError(answer.status, safeJson(answer.text), answer.text);
  }
  const wire: WireResponse = {
    choices: [
      {
        message: {
          content: text,
          tool_calls: [...calls.entries()]
            .sort((a, b) => a[0] - b[0])
            .map(([, c]) => ({ id: c.id, function: { name: c.name, arguments: c.args } })),
        },
      },
    ],
    ...(usage ? { usage } : {}),
  };
  return fromWire(wire);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
