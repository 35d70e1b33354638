import { z } from 'zod';
import { isUuid, pagination } from '../../platform/http/ids.ts';

const message = z
  .string()
  .max(4000, 'must be at most 4000 characters')
  .refine((v) => v.trim().length > 0, 'must not be empty');

export const ChatBody = z.object({
  message,
  /** Shape A: an integer; shape B: a uuid. Either names the same session. */
  session_id: z.union([z.number().int(), z.string().max(64)]).nullish(),
  /** Shape A: a recipe to guide step by step (uuid). */
  recipe_id: z.union([z.string().max(64), z.number().int()]).nullish(),
  /** Shape B. */
  context: z
    .object({
      include_pantry: z.boolean().default(false),
      include_preferences: z.boolean().default(false),
    })
    .nullish(),
});
export type ChatBodyInput = z.infer<typeof ChatBody>;

export const ChatReplyA = z
  .object({
    session_id: z.number().int(),
    message_id: z.number().int(),
    reply: z.string(),
    tokens_used: z.number().int(),
    actions_taken: z.array(z.string()),
  })
  .meta({ id: 'ChatReplyA' });

export const ChatReplyB = z
  .object({
    session_id: z.uuid(),
    message_id: z.uuid(),
    role: z.literal('assistant'),
    content: z.string(),
    created_at: z.string(),
    usage: z.object({ messages_today: z.number().int(), daily_limit: z.number().int().nullable() }),
  })
  .meta({ id: 'ChatReplyB' });

export const SessionA = z
  .object({
    id: z.number().int(),
    title: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ChatSessionA' });
export const SessionB = z
  .object({
    id: z.uuid(),
    title: z.string(),
    message_count: z.number().int(),
    last_message_at: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'ChatSessionB' });

export const MessageA = z
  .object({ id: z.number().int(), role: z.string(), content: z.string(), created_at: z.string() })
  .meta({ id: 'ChatMessageA' });
export const MessageB = z
  .object({ id: z.uuid(), role: z.string(), content: z.string(), created_at: z.string() })
  .meta({ id: 'ChatMessageB' });
export const MessagesB = z
  .object({ session_id: z.uuid(), messages: z.array(MessageB) })
  .meta({ id: 'ChatMessagesB' });

export const SessionsQuery = z.object(pagination(50, 100));

export const ShapeHeaders = z.object({
  'x-chat-shape': z.string().optional().meta({ description: '`B` selects chat shape B; otherwise shape A' }),
});

/**
 * Contract §8: shape B when the header says B, or (POST) the body carries a context object or a
 * uuid session_id; shape A otherwise.
 */
export function chooseShape(header: string | undefined, body?: ChatBodyInput): 'A' | 'B' {
  if (header?.trim().toUpperCase() === 'B') return 'B';
  if (body?.context && typeof body.context === 'object') return 'B';
  if (typeof body?.session_id === 'string' && isUuid(body.session_id)) return 'B';
  return 'A';
}
