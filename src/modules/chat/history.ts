import type { LlmMessage, LlmToolCall } from '../../providers/llm/types.ts';
import type { ChatMessageRow } from './tables.ts';

/**
 * The model's memory of a session: the stored turns, tool calls and their results included (so
 * "add the second one to Thursday" can use the ids an earlier search returned), newest kept first
 * within a token budget. Pure.
 */
export const HISTORY_TOKEN_BUDGET = 4000;
/** A tool result is cut to this many characters in the history (the current round sees it whole). */
const TOOL_RESULT_CHARS = 2000;

interface ToolData {
  call_id?: string;
  name?: string;
  arguments?: Record<string, unknown>;
}

/** About four characters a token, and a few tokens of framing per message. */
export const estimateTokens = (message: LlmMessage): number =>
  4 +
  Math.ceil(
    (message.content.length +
      (message.role === 'assistant' && message.toolCalls ? JSON.stringify(message.toolCalls).length : 0)) /
      4,
  );

/** Stored rows (oldest first) as model messages: consecutive tool rows become one call and its results. */
export function toHistory(rows: readonly ChatMessageRow[]): LlmMessage[][] {
  const groups: LlmMessage[][] = [];
  let tools: { calls: LlmToolCall[]; results: LlmMessage[] } | undefined;
  const flush = () => {
    if (tools && tools.calls.length > 0)
      groups.push([{ role: 'assistant', content: '', toolCalls: tools.calls }, ...tools.results]);
    tools = undefined;
  };
  for (const row of rows) {
    if (row.role === 'tool') {
      const data = (row.tool_data ?? {}) as ToolData;
      if (!data.call_id || !data.name) continue;
      tools ??= { calls: [], results: [] };
      tools.calls.push({ id: data.call_id, name: data.name, arguments: data.arguments ?? {} });
      tools.results.push({
        role: 'tool',
        toolCallId: data.call_id,
        name: data.name,
        content:
          row.content.length > TOOL_RESULT_CHARS
            ? `${row.content.slice(0, TOOL_RESULT_CHARS)}…`
            : row.content,
      });
      continue;
    }
    flush();
    if (row.role === 'user' || row.role === 'assistant')
      groups.push([{ role: row.role, content: row.content }]);
  }
  flush();
  return groups;
}

/**
 * The newest groups that fit the budget, in order, starting with a user message (models expect
 * the conversation to open with the user; a call is never separated from its results).
 */
export function withinBudget(groups: readonly LlmMessage[][], budget = HISTORY_TOKEN_BUDGET): LlmMessage[] {
  const kept: LlmMessage[][] = [];
  let used = 0;
  for (let i = groups.length - 1; i >= 0; i--) {
    const cost = groups[i]!.reduce((sum, m) => sum + estimateTokens(m), 0);
    if (used + cost > budget) break;
    kept.unshift(groups[i]!);
    used += cost;
  }
  while (kept.length > 0 && kept[0]![0]!.role !== 'user') kept.shift();
  return kept.flat();
}
