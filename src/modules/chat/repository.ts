import { sql, type Kysely, type Transaction } from 'kysely';
import type { ChatMessageRow, ChatRole, ChatSessionRow, ChatTables } from './tables.ts';

export interface SessionListItem extends ChatSessionRow {
  message_count: number;
  last_message_at: Date | null;
}

export interface NewMessage {
  role: ChatRole;
  content: string;
  toolData?: unknown;
  createdAt: Date;
}

/** Largest value an `integer` column holds: a bigger number cannot name a session. */
const MAX_INT = 2_147_483_647;

/** Roles a client ever sees: system prompts and tool traffic stay server-side. */
const VISIBLE_ROLES: ChatRole[] = ['user', 'assistant'];

export class ChatRepository {
  readonly #db: Kysely<ChatTables>;
  constructor(db: Kysely<ChatTables>) {
    this.#db = db;
  }

  /** A session of this user by uuid or integer number; undefined for anything else. */
  findSession(
    userId: string,
    ref: { uuid: string } | { number: number },
  ): Promise<ChatSessionRow | undefined> {
    if ('number' in ref && (ref.number < 1 || ref.number > MAX_INT)) return Promise.resolve(undefined);
    let query = this.#db.selectFrom('chat_sessions').selectAll().where('user_id', '=', userId);
    query = 'uuid' in ref ? query.where('id', '=', ref.uuid) : query.where('number', '=', ref.number);
    return query.executeTakeFirst();
  }

  listSessions(userId: string, limit: number, offset: number): Promise<SessionListItem[]> {
    return this.#db
      .selectFrom('chat_sessions as s')
      .leftJoin(
        (eb) =>
          eb
            .selectFrom('chat_messages')
            .select((m) => [
              'session_id',
              m.fn.countAll<number>().as('message_count'),
              m.fn.max('created_at').as('last_message_at'),
            ])
            .where('role', 'in', VISIBLE_ROLES)
            .groupBy('session_id')
            .as('m'),
        (join) => join.onRef('m.session_id', '=', 's.id'),
      )
      .selectAll('s')
      .select((eb) => [
        eb.fn.coalesce('m.message_count', sql<number>`0`).as('message_count'),
        'm.last_message_at',
      ])
      .where('s.user_id', '=', userId)
      .orderBy('s.updated_at', 'desc')
      .orderBy('s.number', 'desc')
      .limit(limit)
      .offset(offset)
      .execute() as Promise<SessionListItem[]>;
  }

  visibleMessages(sessionId: string): Promise<ChatMessageRow[]> {
    return this.#db
      .selectFrom('chat_messages')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('role', 'in', VISIBLE_ROLES)
      .orderBy('number')
      .execute();
  }

  /** The last `limit` messages with the tool traffic, oldest first, as the model's memory of the session. */
  async recentMessages(sessionId: string, limit: number): Promise<ChatMessageRow[]> {
    const rows = await this.#db
      .selectFrom('chat_messages')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('role', 'in', ['user', 'assistant', 'tool'])
      .orderBy('number', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse();
  }

  async deleteSession(userId: string, sessionId: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('chat_sessions')
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Stores one exchange (the user's message, tool traffic, the reply) in a single transaction,
   * creating the session when given a title instead of an id. Answers undefined when the session
   * was deleted meanwhile.
   */
  async saveExchange(
    userId: string,
    session: { id: string } | { title: string },
    messages: NewMessage[],
    /** The session's pinned recipe from now on; undefined leaves it as it is. */
    pinnedRecipeId?: string | null,
  ): Promise<{ session: ChatSessionRow; rows: ChatMessageRow[] } | undefined> {
    return this.#db.transaction().execute(async (trx: Transaction<ChatTables>) => {
      const now = messages.at(-1)?.createdAt ?? new Date();
      const stored =
        'id' in session
          ? await trx
              .updateTable('chat_sessions')
              .set({
                updated_at: now,
                ...(pinnedRecipeId !== undefined ? { pinned_recipe_id: pinnedRecipeId } : {}),
              })
              .where('id', '=', session.id)
              .where('user_id', '=', userId)
              .returningAll()
              .executeTakeFirst()
          : await trx
              .insertInto('chat_sessions')
              .values({
                user_id: userId,
                title: session.title,
                pinned_recipe_id: pinnedRecipeId ?? null,
                created_at: messages[0]?.createdAt ?? now,
                updated_at: now,
              })
              .returningAll()
              .executeTakeFirstOrThrow();
      // The session was deleted while the model was answering: the exchange has nowhere to go.
      if (!stored) return undefined;
      const rows: ChatMessageRow[] = [];
      for (const m of messages) {
        rows.push(
          await trx
            .insertInto('chat_messages')
            .values({
              session_id: stored.id,
              role: m.role,
              content: m.content,
              tool_data: m.toolData === undefined ? null : JSON.stringify(m.toolData),
              created_at: m.createdAt,
            })
            .returningAll()
            .executeTakeFirstOrThrow(),
        );
      }
      return { session: stored, rows };
    });
  }

  /**
   * Counts one user message against the day, atomically: the conditional upsert adds 1 only while
   * the count is below `limit` (null = unlimited) and answers the new count, or undefined when the
   * limit is reached. ON CONFLICT DO UPDATE locks the counter row, so concurrent requests of one
   * user queue on it and the count is exact.
   */
  async reserveMessage(userId: string, day: string, limit: number | null): Promise<number | undefined> {
    const result = await sql<{ messages: number }>`
      insert into chat_daily_usage as u (user_id, day, messages)
      values (${userId}, ${day}, 1)
      on conflict (user_id, day) do update set messages = u.messages + 1
      where ${limit}::integer is null or u.messages < ${limit}::integer
      returning messages`.execute(this.#db);
    return result.rows[0]?.messages;
  }

  /** Gives back a reserved message (the exchange failed upstream). */
  async releaseMessage(userId: string, day: string): Promise<void> {
    await this.#db
      .updateTable('chat_daily_usage')
      .set((eb) => ({ messages: sql<number>`greatest(${eb.ref('messages')} - 1, 0)` }))
      .where('user_id', '=', userId)
      .where('day', '=', day)
      .execute();
  }

  async messagesOnDay(userId: string, day: string): Promise<number> {
    const row = await this.#db
      .selectFrom('chat_daily_usage')
      .select('messages')
      .where('user_id', '=', userId)
      .where('day', '=', day)
      .executeTakeFirst();
    return row?.messages ?? 0;
  }

  async recordLlmUsage(entry: {
    userId: string;
    day: string;
    purpose: string;
    model: string;
    calls: number;
    inputTokens: number;
    outputTokens: number;
    costUsd: number;
  }): Promise<void> {
    await sql`
      insert into llm_usage as u (user_id, day, purpose, model, calls, input_tokens, output_tokens, cost_usd)
      values (${entry.userId}, ${entry.day}, ${entry.purpose}, ${entry.model}, ${entry.calls},
              ${entry.inputTokens}, ${entry.outputTokens}, ${entry.costUsd})
      on conflict (user_id, day, purpose, model) do update set
        calls = u.calls + excluded.calls,
        input_tokens = u.input_tokens + excluded.input_tokens,
        output_tokens = u.output_tokens + excluded.output_tokens,
        cost_usd = u.cost_usd + excluded.cost_usd`.execute(this.#db);
  }

  async llmUsage(userId: string): Promise<
    {
      day: string;
      purpose: string;
      model: string;
      calls: number;
      input_tokens: number;
      output_tokens: number;
    }[]
  > {
    return this.#db
      .selectFrom('llm_usage')
      .select(['day', 'purpose', 'model', 'calls', 'input_tokens', 'output_tokens'])
      .where('user_id', '=', userId)
      .orderBy('day')
      .execute();
  }

  /** Model spend between two UTC days (inclusive), grouped by `by`; top groups first when limited. */
  async spendTotals(
    from: string,
    to: string,
    by: 'all' | 'purpose' | 'day' | 'user_id',
    limit?: number,
  ): Promise<SpendRow[]> {
    const key = by === 'all' ? sql<string>`''` : sql.ref<string>(by);
    const order =
      by === 'user_id' || by === 'purpose'
        ? sql`order by cost_usd desc, tokens desc, key`
        : sql`order by key`;
    const result = await sql<SpendRow>`
      select ${key}::text as key, coalesce(sum(calls), 0)::int as calls,
             coalesce(sum(input_tokens), 0)::bigint as input_tokens,
             coalesce(sum(output_tokens), 0)::bigint as output_tokens,
             coalesce(sum(input_tokens + output_tokens), 0)::bigint as tokens,
             coalesce(sum(cost_usd), 0)::numeric as cost_usd
      from llm_usage where day between ${from}::date and ${to}::date
      ${by === 'all' ? sql`` : sql`group by ${key}`}
      ${order} ${limit === undefined ? sql`` : sql`limit ${limit}`}`.execute(this.#db);
    return result.rows;
  }
}

export interface SpendRow {
  key: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  tokens: number;
  cost_usd: number;
}
