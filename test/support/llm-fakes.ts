import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * Loopback model servers speaking the real wire protocols, so the production adapters run in
 * tests: the OpenAI chat-completions protocol (`POST /v1/chat/completions`, with tool_calls) and
 * the Anthropic Messages protocol (`POST /v1/messages`, with tool_use blocks).
 *
 * Answers are scripted: each request takes the next queued step; with the queue empty the
 * fallback answers (by default the text "OK").
 */
export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export type FakeStep =
  | { text?: string; toolCalls?: FakeToolCall[]; usage?: { input: number; output: number } }
  | { status: number; body?: unknown }
  | { hang: true };

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface FakeLlm {
  /** The value for LLM_BASE_URL (includes /v1). */
  baseUrl: string;
  protocol: 'openai' | 'anthropic';
  requests: RecordedRequest[];
  /** Queue answers, in order. A function step sees the request and decides. */
  script(...steps: (FakeStep | ((request: RecordedRequest) => FakeStep))[]): void;
  fallback: (request: RecordedRequest) => FakeStep;
  close(): Promise<void>;
}

export async function startFakeLlm(protocol: 'openai' | 'anthropic' = 'openai'): Promise<FakeLlm> {
  const queue: (FakeStep | ((request: RecordedRequest) => FakeStep))[] = [];
  const hanging = new Set<ServerResponse>();
  let callCount = 0;
  const fake: FakeLlm = {
    baseUrl: '',
    protocol,
    requests: [],
    script: (...steps) => queue.push(...steps),
    fallback: () => ({ text: 'OK' }),
    close: async () => {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const recorded: RecordedRequest = { path: req.url ?? '', headers: req.headers, body: safeJson(raw) };
      fake.requests.push(recorded);
      const next = queue.shift() ?? fake.fallback;
      const step = typeof next === 'function' ? next(recorded) : next;
      callCount += 1;
      if ('hang' in step) {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if ('status' in step) {
        res.writeHead(step.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(step.body ?? { error: { message: 'scripted failure' } }));
        return;
      }
      if (recorded.body?.stream === true) {
        const events =
          protocol === 'openai' ? openAiStream(step, callCount) : anthropicStream(step, callCount);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          events.map((e) => `${'event' in e ? `event: ${e.event}\n` : ''}data: ${e.data}\n\n`).join(''),
        );
        return;
      }
      const body = protocol === 'openai' ? openAiBody(step, callCount) : anthropicBody(step, callCount);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  fake.baseUrl = `http://127.0.0.1:${port}/v1`;
  return fake;
}

type AnswerStep = { text?: string; toolCalls?: FakeToolCall[]; usage?: { input: number; output: number } };

function openAiBody(step: AnswerStep, n: number) {
  const usage = step.usage ?? { input: 10, output: 5 };
  return {
    id: `chatcmpl-${n}`,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        finish_reason: step.toolCalls?.length ? 'tool_calls' : 'stop',
        message: {
          role: 'assistant',
          content: step.text ?? null,
          ...(step.toolCalls?.length
            ? {
                tool_calls: step.toolCalls.map((c, i) => ({
                  id: `call_${n}_${i}`,
                  type: 'function',
                  function: { name: c.name, arguments: JSON.stringify(c.arguments) },
                })),
              }
            : {}),
        },
      },
    ],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
    },
  };
}

function anthropicBody(step: AnswerStep, n: number) {
  const usage = step.usage ?? { input: 10, output: 5 };
  const content: unknown[] = [];
  if (step.text) content.push({ type: 'text', text: step.text });
  for (const [i, c] of (step.toolCalls ?? []).entries()) {
    content.push({ type: 'tool_use', id: `toolu_${n}_${i}`, name: c.name, input: c.arguments });
  }
  return {
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    content,
    stop_reason: step.toolCalls?.length ? 'tool_use' : 'end_turn',
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  };
}

/** Text in word-sized pieces, so a client sees several deltas. */
const pieces = (text: string) => text.match(/\S+\s*/g) ?? [];
const halves = (text: string) => [
  text.slice(0, Math.ceil(text.length / 2)),
  text.slice(Math.ceil(text.length / 2)),
];

function openAiStream(step: AnswerStep, n: number): { data: string }[] {
  const usage = step.usage ?? { input: 10, output: 5 };
  const chunk = (delta: unknown) => ({
    data: JSON.stringify({ id: `chatcmpl-${n}`, choices: [{ index: 0, delta }] }),
  });
  const out = [chunk({ role: 'assistant' }), ...pieces(step.text ?? '').map((p) => chunk({ content: p }))];
  for (const [i, c] of (step.toolCalls ?? []).entries()) {
    const [a, b] = halves(JSON.stringify(c.arguments));
    out.push(
      chunk({
        tool_calls: [
          { index: i, id: `call_${n}_${i}`, type: 'function', function: { name: c.name, arguments: a } },
        ],
      }),
    );
    out.push(chunk({ tool_calls: [{ index: i, function: { arguments: b } }] }));
  }
  out.push({
    data: JSON.stringify({
      choices: [],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
      },
    }),
  });
  out.push({ data: '[DONE]' });
  return out;
}

function anthropicStream(step: AnswerStep, n: number): { event: string; data: string }[] {
  const usage = step.usage ?? { input: 10, output: 5 };
  const ev = (event: string, body: object) => ({ event, data: JSON.stringify({ type: event, ...body }) });
  const out = [
    ev('message_start', {
      message: { id: `msg_${n}`, usage: { input_tokens: usage.input, output_tokens: 1 } },
    }),
  ];
  let index = 0;
  if (step.text) {
    out.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const p of pieces(step.text))
      out.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: p } }));
    out.push(ev('content_block_stop', { index }));
    index += 1;
  }
  for (const [i, c] of (step.toolCalls ?? []).entries()) {
    out.push(
      ev('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: `toolu_${n}_${i}`, name: c.name, input: {} },
      }),
    );
    for (const part of halves(JSON.stringify(c.arguments))) {
      out.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } }));
    }
    out.push(ev('content_block_stop', { index }));
    index += 1;
  }
  out.push(
    ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: usage.output } }),
  );
  out.push(ev('message_stop', {}));
  return out;
}

function safeJson(raw: string): any {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The text of the last user turn in a recorded request, whichever protocol. */
export function lastUserText(request: RecordedRequest): string {
  const messages: any[] = request.body?.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    const text = (m.content as any[]).find((b) => b.type === 'text');
    if (text) return text.text;
  }
  return '';
}

/** The system prompt of a recorded request, whichever protocol. */
export function systemText(request: RecordedRequest): string {
  if (typeof request.body?.system === 'string') return request.body.system;
  const sys = (request.body?.messages ?? []).find((m: any) => m.role === 'system');
  return sys?.content ?? '';
}
