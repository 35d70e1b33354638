import { randomUUID } from 'node:crypto';
import { malformedAnswer, parseArguments, postJson, upstreamStatusError } from './http.ts';
import { postSse } from './stream.ts';
import type { WireAnswer, WireSettings } from './openai-compatible.ts';
import type { ChatRequest, LlmMessage, LlmToolCall } from './types.ts';

/**
 * The Anthropic Messages protocol: POST {baseUrl}/messages with `x-api-key` and
 * `anthropic-version`. The base URL includes the version segment (`https://api.anthropic.com/v1`).
 */
const ANTHROPIC_VERSION = '2023-06-01';
const DEFAULT_MAX_TOKENS = 2048;

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

interface WireMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

export async function anthropicChat(
  settings: WireSettings,
  model: string,
  request: ChatRequest,
): Promise<WireAnswer> {
  // Structured output on this protocol: one forced tool whose input is the answer.
  const answerTool =
    request.json && request.jsonSchema && !request.tools?.length && !request.onText
      ? {
          name: request.jsonSchema.name,
          description: 'Give the answer.',
          input_schema: request.jsonSchema.schema,
        }
      : undefined;
  const body = {
    model,
    system: request.json
      ? `${request.system}\nAnswer with a single JSON object and nothing else.`
      : request.system,
    ...(answerTool ? { tools: [answerTool], tool_choice: { type: 'tool', name: answerTool.name } } : {}),
    messages: toWire(request.messages),
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    temperature: request.temperature ?? 0.4,
    ...(request.tools?.length
      ? {
          tools: request.tools.map((t) => ({
            name: t.name,
            description: t.description,
            input_schema: t.parameters,
          })),
        }
      : {}),
  };
  const headers: Record<string, string> = {
    'anthropic-version': ANTHROPIC_VERSION,
    ...(settings.apiKey ? { 'x-api-key': settings.apiKey } : {}),
  };
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/messages`;
  if (request.onText) return streamChat(url, headers, body, settings, request);
  const answer = await postJson(url, headers, body, {
    timeoutMs: settings.timeoutMs,
    signal: request.signal,
  });
  if (answer.status < 200 || answer.status >= 300)
    throw upstreamStatusError(answer.status, answer.json, answer.text);
  const wire = fromWire(answer.json);
  const forced = answerTool && wire.toolCalls.find((c) => c.name === answerTool.name);
  return forced ? { ...wire, text: JSON.stringify(forced.arguments), toolCalls: [] } : wire;
}

/** Tool results travel as user-role blocks; consecutive same-role turns merge (the API alternates). */
function toWire(messages: LlmMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
  const push = (role: WireMessage['role'], blocks: Block[]) => {
    const last = out.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'tool') {
      push('user', [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content }]);
    } else if (m.role === 'assistant') {
      const blocks: Block[] = m.content ? [{ type: 'text', text: m.content }] : [];
      for (const call of m.toolCalls ?? []) {
        blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
      }
      if (blocks.length) push('assistant', blocks);
    } else {
      const images: Block[] = (m.images ?? []).map((image) => ({
        type: 'image',
        source: { type: 'base64', media_type: image.mediaType, data: image.data },
      }));
      push('user', [...images, { type: 'text', text: m.content }]);
    }
  }
  return out;
}

interface WireResponse {
  content?: { type?: string; text?: string; id?: string; name?: string; input?: unknown }[];
  usage?: { input_tokens?: number; output_tokens?: number };
}

function fromWire(json: unknown): WireAnswer {
  const response = json as WireResponse | undefined;
  if (!Array.isArray(response?.content)) throw malformedAnswer('no content array');
  const texts: string[] = [];
  const toolCalls: LlmToolCall[] = [];
  for (const block of response.content) {
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    if (block.type === 'tool_use' && block.name) {
      const parsed = parseArguments(block.input);
      toolCalls.push({
        id: block.id || `toolu_${randomUUID()}`,
        name: block.name,
        arguments: parsed.value,
        ...(parsed.error ? { argumentsError: parsed.error } : {}),
      });
    }
  }
  const input = response.usage?.input_tokens ?? 0;
  const output = response.usage?.output_tokens ?? 0;
  return {
    text: texts.join(''),
    toolCalls,
    usage: { inputTokens: input, outputTokens: output, totalTokens: input + output },
  };
}

interface StreamEvent {
  type?: string;
  index?: number;
  message?: { usage?: { input_tokens?: number; output_tokens?: number } };
  content_block?: { type?: string; id?: string; name?: string; text?: string };
  delta?: { type?: string; text?: string; partial_json?: string };
  usage?: { output_tokens?: number };
  error?: { message?: string };
}

/** `stream: true`: text deltas go to onText; tool_use inputs are assembled from partial JSON. */
async function streamChat(
  url: string,
  headers: Record<string, string>,
  body: Record<string, unknown>,
  settings: WireSettings,
  request: ChatRequest,
): Promise<WireAnswer> {
  const blocks = new Map<number, { type: string; id: string; name: string; text: string; json: string }>();
  let input = 0;
  let output = 0;
  let streamError: string | undefined;
  const onData = (data: unknown) => {
    const event = data as StreamEvent;
    const index = event.index ?? 0;
    if (event.type === 'message_start') {
      input = event.message?.usage?.input_tokens ?? 0;
      output = event.message?.usage?.output_tokens ?? 0;
    } else if (event.type === 'content_block_start' && event.content_block) {
      const b = event.content_block;
      blocks.set(index, {
        type: b.type ?? 'text',
        id: b.id ?? '',
        name: b.name ?? '',
        text: b.text ?? '',
        json: '',
      });
    } else if (event.type === 'content_block_delta' && event.delta) {
      const block = blocks.get(index);
      if (!block) return;
      if (event.delta.type === 'text_delta' && event.delta.text) {
        block.text += event.delta.text;
        request.onText!(event.delta.text);
      } else if (event.delta.type === 'input_json_delta' && event.delta.partial_json) {
        block.json += event.delta.partial_json;
      }
    } else if (event.type === 'message_delta') {
      output = event.usage?.output_tokens ?? output;
    } else if (event.type === 'error') {
      streamError = event.error?.message ?? 'stream error';
    }
  };
  const answer = await postSse(
    url,
    headers,
    { ...body, stream: true },
    { timeoutMs: settings.timeoutMs, signal: request.signal },
    onData,
  );
  if (answer.status < 200 || answer.status >= 300)
    throw upstreamStatusError(answer.status, undefined, answer.text);
  if (streamError) throw malformedAnswer(streamError);
  const content = [...blocks.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, b]) =>
      b.type === 'tool_use'
        ? { type: 'tool_use', id: b.id, name: b.name, input: b.json || '{}' }
        : { type: 'text', text: b.text },
    );
  return fromWire({ content, usage: { input_tokens: input, output_tokens: output } });
}
