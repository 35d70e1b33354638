import type { z } from 'zod';
import type { SessionListItem } from './repository.ts';
import type { ChatReplyA, ChatReplyB, MessageA, MessageB, SessionA, SessionB } from './schemas.ts';
import type { ChatExchange } from './service.ts';
import type { ChatMessageRow } from './tables.ts';

export function presentReplyA(x: ChatExchange): z.infer<typeof ChatReplyA> {
  return {
    session_id: x.session.number,
    message_id: x.reply.number,
    reply: x.reply.content,
    tokens_used: x.tokensUsed,
    actions_taken: x.actionsTaken,
  };
}

export function presentReplyB(x: ChatExchange): z.infer<typeof ChatReplyB> {
  return {
    session_id: x.session.id,
    message_id: x.reply.id,
    role: 'assistant',
    content: x.reply.content,
    created_at: x.reply.created_at.toISOString(),
    usage: { messages_today: x.messagesToday, daily_limit: x.dailyLimit },
  };
}

export function presentSessionA(s: SessionListItem): z.infer<typeof SessionA> {
  return {
    id: s.number,
    title: s.title,
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  };
}

export function presentSessionB(s: SessionListItem): z.infer<typeof SessionB> {
  return {
    id: s.id,
    title: s.title ?? '',
    message_count: Number(s.message_count),
    last_message_at: toDate(s.last_message_at ?? s.created_at).toISOString(),
    created_at: s.created_at.toISOString(),
  };
}

export function presentMessageA(m: ChatMessageRow): z.infer<typeof MessageA> {
  return { id: m.number, role: m.role, content: m.content, created_at: m.created_at.toISOString() };
}

export function presentMessageB(m: ChatMessageRow): z.infer<typeof MessageB> {
  return { id: m.id, role: m.role, content: m.content, created_at: m.created_at.toISOString() };
}

/** Aggregates (max(created_at)) may come back as strings from some drivers. */
const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
