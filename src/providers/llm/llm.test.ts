import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../platform/errors.ts';
import { startFakeLlm, type FakeLlm } from '../../../test/support/llm-fakes.ts';
import { parseLooseJson } from './json-repair.ts';
import { createLlmProvider, type LlmSettings } from './provider.ts';
import { generateObject } from './structured.ts';

const Dish = z.object({ name: z.string(), minutes: z.number().int() });

describe('parseLooseJson', () => {
  it.each([
    ['```json\n{"name": "Soup", "minutes": 20}\n```', { name: 'Soup', minutes: 20 }],
    ['Sure! Here it is: {"name": "Soup", "minutes": 20,} Enjoy.', { name: 'Soup', minutes: 20 }],
    ["{'name': 'Soup', 'minutes': 20}", { name: 'Soup', minutes: 20 }],
    [
      '{name: "Soup", minutes: 20, ok: True, gone: None}',
      { name: 'Soup', minutes: 20, ok: true, gone: null },
    ],
    ['{"items": [1, 2, 3,], "name": "a \\"quoted\\" word"}', { items: [1, 2, 3], name: 'a "quoted" word' }],
    ['{"name": "Soup", "steps": ["chop", "boil"', { name: 'Soup', steps: ['chop', 'boil'] }],
  ])('repairs %s', (text, expected) => {
    expect(parseLooseJson(text)).toEqual(expected);
  });

  it('answers undefined when there is no object', () => {
    expect(parseLooseJson('I cannot help with that.')).toBeUndefined();
  });
});

async function expectAppError(promise: Promise<unknown>, status: number, code: string) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(status);
  expect((error as AppError).code).toBe(code);
  return error as AppError;
}

for (const protocol of ['openai', 'anthropic'] as const) {
  describe(`${protocol} protocol`, () => {
    let fake: FakeLlm;
    let settings: LlmSettings;
    beforeAll(async () => {
      fake = await startFakeLlm(protocol);
      settings = {
        provider: protocol,
        baseUrl: fake.baseUrl,
        apiKey: 'test-key',
        timeoutMs: 400,
        chatModel: 'chat-model',
        recipeModel: 'recipe-model',
      };
    });
    afterAll(() => fake.close());

    it('sends a chat turn with tools and reads tool calls, text and usage', async () => {
      fake.script({
        text: 'Let me look.',
        toolCalls: [{ name: 'get_pantry', arguments: {} }],
        usage: { input: 7, output: 3 },
      });
      const llm = createLlmProvider(settings);
      const result = await llm.chat({
        purpose: 'chat',
        system: 'You are helpful.',
        messages: [{ role: 'user', content: 'What is in my fridge?' }],
        tools: [
          {
            name: 'get_pantry',
            description: 'read the pantry',
            parameters: { type: 'object', properties: {} },
          },
        ],
      });
      expect(result.toolCalls).toEqual([{ id: expect.any(String), name: 'get_pantry', arguments: {} }]);
      expect(result.usage).toEqual({ inputTokens: 7, outputTokens: 3, totalTokens: 10 });
      expect(result.model).toBe('chat-model');
      const sent = fake.requests.at(-1)!;
      expect(sent.body.model).toBe('chat-model');
      if (protocol === 'openai') {
        expect(sent.path).toBe('/v1/chat/completions');
        expect(sent.headers.authorization).toBe('Bearer test-key');
        expect(sent.body.messages[0]).toEqual({ role: 'system', content: 'You are helpful.' });
        expect(sent.body.tools[0].function.name).toBe('get_pantry');
      } else {
        expect(sent.path).toBe('/v1/messages');
        expect(sent.headers['x-api-key']).toBe('test-key');
        expect(sent.headers['anthropic-version']).toBe('2023-06-01');
        expect(sent.body.system).toBe('You are helpful.');
        expect(sent.body.tools[0].input_schema).toEqual({ type: 'object', properties: {} });
      }
    });

    it('reads a tool call a small model wrote as text', async () => {
      fake.script(
        { text: '```json\n{"name": "get_pantry", "arguments": {"verbose": true}}\n```' },
        { text: '{"answer": 42}' },
      );
      const llm = createLlmProvider(settings);
      const tools = [
        { name: 'get_pantry', description: 'read', parameters: { type: 'object', properties: {} } },
      ];
      const result = await llm.chat({
        purpose: 'chat',
        system: 's',
        messages: [{ role: 'user', content: 'x' }],
        tools,
      });
      expect(result.toolCalls).toEqual([
        { id: expect.any(String), name: 'get_pantry', arguments: { verbose: true } },
      ]);
      expect(result.text).toBe('');
      const plain = await llm.chat({
        purpose: 'chat',
        system: 's',
        messages: [{ role: 'user', content: 'x' }],
        tools,
      });
      expect(plain.toolCalls).toEqual([]);
      expect(plain.text).toBe('{"answer": 42}');
    });

    it('passes tool results back in the protocol’s own form', async () => {
      fake.script({ text: 'You have eggs.' });
      const llm = createLlmProvider(settings);
      await llm.chat({
        purpose: 'chat',
        system: 's',
        messages: [
          { role: 'user', content: 'fridge?' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'get_pantry', arguments: {} }] },
          { role: 'tool', toolCallId: 'c1', name: 'get_pantry', content: '{"items":["eggs"]}' },
        ],
      });
      const messages = fake.requests.at(-1)!.body.messages;
      if (protocol === 'openai') {
        expect(messages[2].tool_calls[0]).toMatchObject({ id: 'c1', function: { name: 'get_pantry' } });
        expect(messages[3]).toMatchObject({
          role: 'tool',
          tool_call_id: 'c1',
          content: '{"items":["eggs"]}',
        });
      } else {
        expect(messages[1].content[0]).toMatchObject({ type: 'tool_use', id: 'c1', name: 'get_pantry' });
        expect(messages[2]).toEqual({
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'c1', content: '{"items":["eggs"]}' }],
        });
      }
    });

    it('generateObject accepts fenced JSON', async () => {
      fake.script({ text: '```json\n{"name": "Soup", "minutes": 20}\n```' });
      const llm = createLlmProvider(settings);
      const out = await generateObject(llm, {
        purpose: 'recipe',
        schema: Dish,
        system: 's',
        prompt: 'a soup',
      });
      expect(out.object).toEqual({ name: 'Soup', minutes: 20 });
      expect(fake.requests.at(-1)!.body.model).toBe('recipe-model');
    });

    it('generateObject retries once with the validation error after invalid JSON', async () => {
      fake.script(
        { text: '{"name": "Soup", "minutes": "twenty"}' },
        { text: '{"name": "Soup", "minutes": 20}' },
      );
      const llm = createLlmProvider(settings);
      const before = fake.requests.length;
      const out = await generateObject(llm, {
        purpose: 'recipe',
        schema: Dish,
        system: 's',
        prompt: 'a soup',
      });
      expect(out.object).toEqual({ name: 'Soup', minutes: 20 });
      expect(out.usage.totalTokens).toBe(30);
      expect(fake.requests.length - before).toBe(2);
      const retry = fake.requests.at(-1)!.body.messages;
      expect(JSON.stringify(retry)).toContain('minutes');
      expect(JSON.stringify(retry.at(-1))).toContain('invalid');
    });

    it('generateObject gives up after the retry with 502', async () => {
      fake.script({ text: 'no idea' }, { text: 'still no idea' });
      const llm = createLlmProvider(settings);
      await expectAppError(
        generateObject(llm, { purpose: 'recipe', schema: Dish, system: 's', prompt: 'x' }),
        502,
        'upstream_error',
      );
    });

    it('a hanging server is a 504 upstream_timeout', async () => {
      fake.script({ hang: true });
      const llm = createLlmProvider(settings);
      await expectAppError(
        llm.chat({ purpose: 'chat', system: 's', messages: [{ role: 'user', content: 'hi' }] }),
        504,
        'upstream_timeout',
      );
    });

    it.runIf(protocol === 'openai')('asks again without a temperature the server refuses', async () => {
      fake.script(
        { status: 400, body: { error: { message: "Unsupported value: 'temperature'" } } },
        { text: '{"name": "Soup", "minutes": 5}' },
      );
      const llm = createLlmProvider(settings);
      const out = await generateObject(llm, { purpose: 'recipe', schema: Dish, system: 's', prompt: 'x' });
      expect(out.object).toEqual({ name: 'Soup', minutes: 5 });
      const [first, second] = fake.requests.slice(-2);
      expect(first!.body.temperature).toBeDefined();
      expect(second!.body.temperature).toBeUndefined();
      expect(second!.body.response_format.type).toBe('json_schema');
    });

    it.runIf(protocol === 'openai')(
      'asks for the JSON Schema as structured output, falls back to JSON mode where refused, and remembers',
      async () => {
        const llm = createLlmProvider(settings);
        fake.script({ text: '{"name": "Soup", "minutes": 5}' });
        await generateObject(llm, {
          purpose: 'recipe',
          schema: Dish,
          system: 's',
          prompt: 'x',
          schemaName: 'dish',
        });
        const format = fake.requests.at(-1)!.body.response_format;
        expect(format).toMatchObject({ type: 'json_schema', json_schema: { name: 'dish', strict: false } });
        expect(format.json_schema.schema.properties).toHaveProperty('minutes');
        expect(format.json_schema.schema.$schema).toBeUndefined();

        const plain = createLlmProvider({ ...settings });
        fake.script(
          {
            status: 400,
            body: { error: { message: "response_format type 'json_schema' is not supported" } },
          },
          { text: '{"name": "Soup", "minutes": 5}' },
          { text: '{"name": "Stew", "minutes": 9}' },
        );
        const before = fake.requests.length;
        await generateObject(plain, { purpose: 'recipe', schema: Dish, system: 's', prompt: 'x' });
        await generateObject(plain, { purpose: 'recipe', schema: Dish, system: 's', prompt: 'y' });
        const formats = fake.requests.slice(before).map((r) => r.body.response_format?.type);
        expect(formats).toEqual(['json_schema', 'json_object', 'json_object']);
      },
    );

    it.runIf(protocol === 'anthropic')('gets structured output through one forced tool', async () => {
      fake.script({ toolCalls: [{ name: 'dish', arguments: { name: 'Soup', minutes: 5 } }] });
      const llm = createLlmProvider(settings);
      const out = await generateObject(llm, {
        purpose: 'recipe',
        schema: Dish,
        system: 's',
        prompt: 'x',
        schemaName: 'dish',
      });
      expect(out.object).toEqual({ name: 'Soup', minutes: 5 });
      const body = fake.requests.at(-1)!.body;
      expect(body.tool_choice).toEqual({ type: 'tool', name: 'dish' });
      expect(body.tools[0].input_schema.properties).toHaveProperty('minutes');
    });

    it('a 500 answer is a 502 upstream_error', async () => {
      fake.script({ status: 500 });
      const llm = createLlmProvider(settings);
      const error = await expectAppError(
        llm.chat({ purpose: 'chat', system: 's', messages: [{ role: 'user', content: 'hi' }] }),
        502,
        'upstream_error',
      );
      expect(error.message).toContain('500');
    });

    it('keeps the server’s own error text for the log, out of the client’s detail', async () => {
      const leak = 'quota of org-7F3A exceeded at /srv/models/secret-path';
      fake.script({ status: 429, body: { error: { message: leak, type: 'insufficient_quota' } } });
      const llm = createLlmProvider(settings);
      const error = await expectAppError(
        llm.chat({ purpose: 'chat', system: 's', messages: [{ role: 'user', content: 'hi' }] }),
        502,
        'upstream_error',
      );
      expect(error.message).not.toContain('org-7F3A');
      expect(error.internal).toContain(leak);
    });
  });
}

describe('configuration', () => {
  const base: LlmSettings = {
    provider: 'openai',
    baseUrl: undefined,
    apiKey: undefined,
    timeoutMs: 1000,
    chatModel: undefined,
    recipeModel: undefined,
  };

  it('names CHAT_MODEL when no model is set', async () => {
    const llm = createLlmProvider({ ...base, baseUrl: 'http://127.0.0.1:9/v1' });
    const error = await expectAppError(
      llm.chat({ purpose: 'chat', system: '', messages: [] }),
      503,
      'not_configured',
    );
    expect(error.message).toContain('CHAT_MODEL');
  });

  it('names LLM_BASE_URL for an OpenAI-compatible provider without base URL or key', () => {
    const llm = createLlmProvider({ ...base, chatModel: 'm', recipeModel: 'm' });
    expect(llm.isConfigured('chat')).toBe(false);
    expect(() => llm.assertConfigured('chat')).toThrow(/LLM_BASE_URL/);
  });

  it('an API key alone selects the provider’s default base', () => {
    expect(createLlmProvider({ ...base, chatModel: 'm', apiKey: 'k' }).isConfigured('chat')).toBe(true);
    expect(createLlmProvider({ ...base, provider: 'anthropic', chatModel: 'm' }).isConfigured('chat')).toBe(
      false,
    );
    expect(() =>
      createLlmProvider({ ...base, provider: 'anthropic', chatModel: 'm' }).assertConfigured('chat'),
    ).toThrow(/LLM_API_KEY/);
  });

  it('a refused connection is a 502', async () => {
    const llm = createLlmProvider({ ...base, baseUrl: 'http://127.0.0.1:9/v1', chatModel: 'm' });
    await expectAppError(
      llm.chat({ purpose: 'chat', system: '', messages: [{ role: 'user', content: 'x' }] }),
      502,
      'upstream_error',
    );
  });
});

for (const protocol of ['openai', 'anthropic'] as const) {
  describe(`${protocol} streaming`, () => {
    it('delivers text deltas and assembles tool calls and usage like the plain answer', async () => {
      const fake = await startFakeLlm(protocol);
      try {
        const llm = createLlmProvider({
          provider: protocol,
          baseUrl: fake.baseUrl,
          apiKey: 'k',
          timeoutMs: 2000,
          chatModel: 'm',
          recipeModel: 'm',
        });
        fake.script(
          {
            text: 'Let me check the pantry.',
            toolCalls: [{ name: 'get_pantry', arguments: { verbose: true } }],
            usage: { input: 12, output: 4 },
          },
          { text: 'You have eggs and milk.' },
        );
        const deltas: string[] = [];
        const first = await llm.chat({
          purpose: 'chat',
          system: 's',
          messages: [{ role: 'user', content: 'fridge?' }],
          onText: (d) => deltas.push(d),
        });
        expect(fake.requests[0]!.body.stream).toBe(true);
        expect(deltas.length).toBeGreaterThan(1);
        expect(deltas.join('')).toBe('Let me check the pantry.');
        expect(first.text).toBe('Let me check the pantry.');
        expect(first.toolCalls).toEqual([
          { id: expect.any(String), name: 'get_pantry', arguments: { verbose: true } },
        ]);
        expect(first.usage).toEqual({ inputTokens: 12, outputTokens: 4, totalTokens: 16 });
        const second = await llm.chat({
          purpose: 'chat',
          system: 's',
          messages: [{ role: 'user', content: 'x' }],
          onText: () => undefined,
        });
        expect(second.text).toBe('You have eggs and milk.');
        expect(second.toolCalls).toEqual([]);
        fake.script({ status: 500 });
        await expectAppError(
          llm.chat({ purpose: 'chat', system: 's', messages: [], onText: () => undefined }),
          502,
          'upstream_error',
        );
      } finally {
        await fake.close();
      }
    });
  });
}
