import { randomUUID } from 'node:crypto';
import { parseLooseJson, stripFences } from './json-repair.ts';
import type { LlmToolCall, LlmToolSpec } from './types.ts';

/**
 * Small local models served without native tool support often answer a tool call as text:
 * `{"name": "get_pantry", "arguments": {}}` (or `parameters`, or an OpenAI-like `function` object,
 * or a list of them). When the whole answer is such JSON naming offered tools, it is read as the
 * tool calls it means; anything else stays text.
 */
export function toolCallsFromText(text: string, tools: readonly LlmToolSpec[]): LlmToolCall[] {
  const body = stripFences(text);
  if (!/^[[{]/.test(body)) return [];
  const parsed = parseLooseJson(body);
  const items: unknown[] = Array.isArray(parsed)
    ? parsed
    : parsed && typeof parsed === 'object' && Array.isArray((parsed as { tool_calls?: unknown }).tool_calls)
      ? (parsed as { tool_calls: unknown[] }).tool_calls
      : [parsed];
  const names = new Set(tools.map((t) => t.name));
  const calls: LlmToolCall[] = [];
  for (const item of items) {
    if (!item || typeof item !== 'object') return [];
    const record = item as Record<string, unknown>;
    const fn = (record.function && typeof record.function === 'object' ? record.function : record) as Record<
      string,
      unknown
    >;
    const name = fn.name;
    if (typeof name !== 'string' || !names.has(name)) return [];
    let args = fn.arguments ?? fn.parameters ?? {};
    if (typeof args === 'string') args = parseLooseJson(args) ?? {};
    if (!args || typeof args !== 'object' || Array.isArray(args)) return [];
    calls.push({ id: `call_${randomUUID()}`, name, arguments: args as Record<string, unknown> });
  }
  return calls;
}
