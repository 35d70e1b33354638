import type { ColumnType, Generated, Selectable } from 'kysely';

export type ChatRole = 'user' | 'assistant' | 'system' | 'tool';

export interface ChatSessionsTable {
  id: Generated<string>;
  number: Generated<number>;
  user_id: string;
  title: string | null;
  pinned_recipe_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ChatMessagesTable {
  id: Generated<string>;
  number: Generated<number>;
  session_id: string;
  role: ChatRole;
  content: string;
  tool_data: ColumnType<unknown, string | null, string | null> | null;
  created_at: Generated<Date>;
}

export interface ChatDailyUsageTable {
  user_id: string;
  day: string;
  messages: number;
}

export interface LlmUsageTable {
  user_id: string;
  day: string;
  purpose: string;
  model: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: Generated<number>;
}

export interface ChatTables {
  chat_sessions: ChatSessionsTable;
  chat_messages: ChatMessagesTable;
  chat_daily_usage: ChatDailyUsageTable;
  llm_usage: LlmUsageTable;
}

export type ChatSessionRow = Selectable<ChatSessionsTable>;
export type ChatMessageRow = Selectable<ChatMessagesTable>;
