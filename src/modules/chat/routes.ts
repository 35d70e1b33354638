import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '../../platform/http/auth.ts';
import { IdParams } from '../../platform/http/ids.ts';
import {
  presentMessageA,
  presentMessageB,
  presentReplyA,
  presentReplyB,
  presentSessionA,
  presentSessionB,
} from './presenter.ts';
import {
  ChatBody,
  ChatReplyA,
  ChatReplyB,
  chooseShape,
  MessageA,
  MessagesB,
  SessionA,
  SessionB,
  SessionsQuery,
  ShapeHeaders,
} from './schemas.ts';
import type { ChatExchange, ChatInput, ChatService } from './service.ts';
import { SseAnswer } from './sse.ts';

export async function chatRoutes(app: FastifyInstance, options: { chat: ChatService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { chat } = options;

  r.post('/api/chat', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['chat'],
      summary: 'Send a message to the cooking assistant (shape A or B, see contract §8)',
      description:
        'Shape B when `X-Chat-Shape: B`, a `context` object or a uuid `session_id`; shape A otherwise. ' +
        'Free tier: 10 user messages per UTC day across both shapes, then 429 `chat_daily_limit` with ' +
        '`Retry-After`. A message whose model call fails (502/504) is not counted. 503 `not_configured` ' +
        'without CHAT_MODEL. 404 for an unknown or foreign session or pinned recipe. With ' +
        '`Accept: text/event-stream` the answer streams as server-sent events: `delta` {text} as the ' +
        'model writes, `tool` {name, executed} per tool call, then `done` with the JSON body above, or ' +
        '`error` with a problem document when the model fails after streaming began.',
      headers: ShapeHeaders,
      body: ChatBody,
      response: { 200: z.union([ChatReplyA, ChatReplyB]) },
    },
    handler: async (request, reply) => {
      const shape = chooseShape(request.headers['x-chat-shape'], request.body);
      const { message, session_id, recipe_id, context } = request.body;
      const input: ChatInput = {
        shape,
        message,
        sessionRef: session_id ?? undefined,
        recipeRef: shape === 'A' ? recipe_id : undefined,
        context: context
          ? { includePantry: context.include_pantry, includePreferences: context.include_preferences }
          : undefined,
      };
      const present = (x: ChatExchange) => (shape === 'A' ? presentReplyA(x) : presentReplyB(x));
      if (!/text\/event-stream/.test(request.headers.accept ?? '')) {
        return present(await chat.send(callerOf(request), input));
      }
      const sse = new SseAnswer(reply);
      try {
        const exchange = await chat.send(callerOf(request), input, {
          onText: (text) => sse.send('delta', { text }),
          onTool: (name, executed) => sse.send('tool', { name, executed }),
        });
        sse.send('done', present(exchange));
        sse.end();
      } catch (error) {
        if (!sse.started) throw error;
        request.log.warn({ err: error }, 'chat stream failed');
        sse.fail(error);
      }
      return reply;
    },
  });

  r.get('/api/chat/sessions', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['chat'],
      summary: 'The caller’s chat sessions, most recently active first',
      headers: ShapeHeaders,
      querystring: SessionsQuery,
      response: { 200: z.union([z.array(SessionA), z.array(SessionB)]) },
    },
    handler: async (request) => {
      const sessions = await chat.listSessions(
        callerOf(request).id,
        request.query.limit,
        request.query.offset,
      );
      return chooseShape(request.headers['x-chat-shape']) === 'A'
        ? sessions.map(presentSessionA)
        : sessions.map(presentSessionB);
    },
  });

  r.get('/api/chat/sessions/:id/messages', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['chat'],
      summary: 'User and assistant messages of a session (either id form), oldest first',
      headers: ShapeHeaders,
      params: IdParams,
      response: { 200: z.union([z.array(MessageA), MessagesB]) },
    },
    handler: async (request) => {
      const { session, messages } = await chat.messages(callerOf(request).id, request.params.id);
      return chooseShape(request.headers['x-chat-shape']) === 'A'
        ? messages.map(presentMessageA)
        : { session_id: session.id, messages: messages.map(presentMessageB) };
    },
  });

  r.delete('/api/chat/sessions/:id', {
    config: { auth: 'bearer' },
    schema: {
      tags: ['chat'],
      summary: 'Delete a session and all its messages',
      params: IdParams,
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      await chat.deleteSession(callerOf(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  });
}
