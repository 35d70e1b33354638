import { chatDailyLimit, notFound, upstreamError } from '../../platform/errors.ts';
import { isUuid } from '../../platform/http/ids.ts';
import { spentAnyway } from '../../platform/quotas/daily-allowance.ts';
import { toHistory, withinBudget } from './history.ts';
import { guardReply, recipeIdsIn } from './reply-guard.ts';
import type { Tier } from '../../platform/security/tokens.ts';
import {
  addUsage,
  emptyUsage,
  type LlmMessage,
  type LlmProvider,
  type LlmUsage,
} from '../../providers/llm/index.ts';
import type { UserProfile } from '../accounts/service.ts';
import type { RecipeForUse, Viewer } from '../recipes/contract.ts';
import type { AssistantDeps } from './ports.ts';
import { dataBlocks, systemPrompt, userTurn } from './prompts.ts';
import type { ChatRepository, NewMessage, SessionListItem } from './repository.ts';
import type { ChatMessageRow, ChatSessionRow } from './tables.ts';
import { runTool, TOOL_SPECS, type ToolContext } from './tools.ts';
import type { LlmUsageService } from './usage.ts';

export type ChatShape = 'A' | 'B';

/** Free tier: user messages per UTC day, across both shapes (spec Limits). */
export const FREE_DAILY_MESSAGES = 10;
/** How many earlier user/assistant turns the model sees. */
/** Stored messages read back per exchange (the token budget then decides what the model sees). */
const HISTORY_MESSAGES = 60;
const TITLE_LENGTH = 60;

export interface Caller {
  id: string;
  tier: Tier;
  isAdmin: boolean;
}

export interface ChatInput {
  shape: ChatShape;
  message: string;
  /** Either id form; undefined starts a new session. */
  sessionRef?: string | number | undefined;
  /** Shape A: a recipe to guide through step by step. */
  /** Pins a recipe to the session (null unpins); undefined keeps the session's pinned recipe. */
  recipeRef?: string | number | null | undefined;
  context?: { includePantry: boolean; includePreferences: boolean } | undefined;
}

/** Progress of one exchange, for streaming answers (SSE). */
export interface ChatListener {
  /** A piece of model text, as it arrives (tool-round prose included). */
  onText(delta: string): void;
  /** A tool call was handled (`executed` false: refused or invalid). */
  onTool(name: string, executed: boolean): void;
}

export interface ChatExchange {
  session: ChatSessionRow;
  reply: ChatMessageRow;
  tokensUsed: number;
  actionsTaken: string[];
  messagesToday: number;
  dailyLimit: number | null;
}

/**
 * The cooking assistant (spec AI chat, contract §8). One exchange:
 *   1. checks the model is configured, the session and pinned recipe exist (no quota spent on a 4xx/503);
 *   2. reserves one message of the user's day (exact under concurrency, see ChatRepository.reserveMessage);
 *   3. runs the model with the tool loop (shape A) and stores the exchange in one transaction;
 *   4. on any failure (502/504 from the model, a lost session) gives the reserved message back,
 *      so only answered messages count. Tool effects that already happened stay done.
 */
export class ChatService {
  readonly #repo: ChatRepository;
  readonly #llm: LlmProvider;
  readonly #usage: LlmUsageService;
  readonly #deps: AssistantDeps;
  readonly #maxToolRounds: number;
  readonly #now: () => Date;

  constructor(
    repo: ChatRepository,
    llm: LlmProvider,
    usage: LlmUsageService,
    deps: AssistantDeps,
    options: { maxToolRounds: number; now: () => Date },
  ) {
    this.#repo = repo;
    this.#llm = llm;
    this.#usage = usage;
    this.#deps = deps;
    this.#maxToolRounds = options.maxToolRounds;
    this.#now = options.now;
  }

  async send(caller: Caller, input: ChatInput, listener?: ChatListener): Promise<ChatExchange> {
    this.#llm.assertConfigured('chat');
    const receivedAt = this.#now();
    const session =
      input.sessionRef === undefined ? undefined : await this.#session(caller.id, input.sessionRef);
    const viewer: Viewer = { id: caller.id, isAdmin: caller.isAdmin };
    const pinned = await this.#pinned(input.recipeRef, session, viewer);

    const day = utcDay(receivedAt);
    const dailyLimit = caller.tier === 'free' ? FREE_DAILY_MESSAGES : null;
    const messagesToday = await this.#repo.reserveMessage(caller.id, day, dailyLimit);
    if (messagesToday === undefined)
      throw chatDailyLimit(secondsToNextUtcMidnight(receivedAt), FREE_DAILY_MESSAGES);
    try {
      const answer = await this.#answer(caller, viewer, input, session, pinned, receivedAt, listener);
      const saved = await this.#repo.saveExchange(
        caller.id,
        session ? { id: session.id } : { title: titleFrom(input.message) },
        [{ role: 'user', content: input.message, createdAt: receivedAt }, ...answer.stored],
        input.recipeRef === undefined ? undefined : (pinned?.id ?? null),
      );
      if (!saved) throw notFound('Chat session');
      return {
        session: saved.session,
        reply: saved.rows.at(-1)!,
        tokensUsed: answer.usage.totalTokens,
        actionsTaken: answer.actions,
        messagesToday,
        dailyLimit,
      };
    } catch (error) {
      // A message whose model call timed out may have cost a whole long answer: it counts.
      if (!spentAnyway(error)) await this.#repo.releaseMessage(caller.id, day);
      throw error;
    }
  }

  listSessions(userId: string, limit: number, offset: number): Promise<SessionListItem[]> {
    return this.#repo.listSessions(userId, limit, offset);
  }

  async messages(
    userId: string,
    ref: string,
  ): Promise<{ session: ChatSessionRow; messages: ChatMessageRow[] }> {
    const session = await this.#session(userId, ref);
    return { session, messages: await this.#repo.visibleMessages(session.id) };
  }

  async deleteSession(userId: string, ref: string): Promise<void> {
    const session = await this.#session(userId, ref);
    if (!(await this.#repo.deleteSession(userId, session.id))) throw notFound('Chat session');
  }

  /** Messages counted today (UTC) for the user. */
  messagesToday(userId: string): Promise<number> {
    return this.#repo.messagesOnDay(userId, utcDay(this.#now()));
  }

  async #answer(
    caller: Caller,
    viewer: Viewer,
    input: ChatInput,
    session: ChatSessionRow | undefined,
    pinned: RecipeForUse | undefined,
    receivedAt: Date,
    listener: ChatListener | undefined,
  ): Promise<{ stored: NewMessage[]; usage: LlmUsage; actions: string[] }> {
    const deps = this.#deps;
    const profile = await deps.profiles.getProfile(caller.id);
    const weekStart = deps.mealPlans.currentWeekStart();
    const wantsPantry = input.shape === 'A' || Boolean(input.context?.includePantry);
    const wantsPreferences = input.shape === 'B' && Boolean(input.context?.includePreferences);
    const promptContext = {
      shape: input.shape,
      today: receivedAt,
      weekStart,
      profile,
      ...(wantsPantry ? { pantry: await deps.pantry.list(caller.id) } : {}),
      ...(wantsPreferences ? { preferences: await deps.preferences.get(caller.id) } : {}),
      includeProfileDetails: input.shape === 'A' || wantsPreferences,
      ...(pinned ? { pinnedRecipe: pinned } : {}),
    };
    const system = systemPrompt(promptContext);
    // Earlier turns with their tool calls and results (ids included), newest first within a budget.
    const history = session
      ? withinBudget(toHistory(await this.#repo.recentMessages(session.id, HISTORY_MESSAGES)))
      : [];
    const messages: LlmMessage[] = [
      ...history,
      { role: 'user', content: userTurn(input.message, dataBlocks(promptContext)) },
    ];
    const llm = this.#usage.forUser(this.#llm, caller.id, 'chat');
    const toolContext: ToolContext = {
      viewer,
      profile,
      userMessage: input.message,
      weekStart,
      today: (receivedAt.getUTCDay() + 6) % 7,
      planChanges: 0,
    };
    const stored: NewMessage[] = [];
    const actions: string[] = [];
    let usage = emptyUsage();
    for (let round = 0; ; round++) {
      // Shape A gets tools for up to maxToolRounds rounds; then the model must answer in words.
      const tools = input.shape === 'A' && round < this.#maxToolRounds ? TOOL_SPECS : undefined;
      const answer = await llm.chat({
        purpose: 'chat',
        system,
        messages,
        ...(tools ? { tools } : {}),
        ...(listener ? { onText: (delta: string) => listener.onText(delta) } : {}),
      });
      usage = addUsage(usage, answer.usage);
      if (!tools || answer.toolCalls.length === 0) {
        const text = answer.text.trim();
        if (!text) throw upstreamError('language model', 'The language model returned an empty reply.');
        const reply = await this.#guarded(text, messages, pinned, viewer, profile);
        // A streaming client has the model's words already: it gets the note as the last piece.
        if (listener && reply !== text) listener.onText(reply.slice(text.length));
        stored.push({ role: 'assistant', content: reply, createdAt: laterThan(receivedAt, this.#now()) });
        return { stored, usage, actions };
      }
      messages.push({ role: 'assistant', content: answer.text, toolCalls: answer.toolCalls });
      for (const call of answer.toolCalls) {
        const outcome = call.argumentsError
          ? { executed: false, output: { error: `Invalid arguments: ${call.argumentsError}` } }
          : await runTool(call.name, call.arguments, toolContext, deps);
        listener?.onTool(call.name, outcome.executed);
        if (outcome.executed && !actions.includes(call.name)) actions.push(call.name);
        const content = JSON.stringify(outcome.output);
        messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content });
        stored.push({
          role: 'tool',
          content,
          toolData: {
            call_id: call.id,
            name: call.name,
            arguments: call.arguments,
            executed: outcome.executed,
          },
          createdAt: laterThan(receivedAt, this.#now()),
        });
      }
    }
  }

  /** The reply with a note on every recipe it names that the user may not eat (reply-guard.ts). */
  async #guarded(
    reply: string,
    messages: readonly LlmMessage[],
    pinned: RecipeForUse | undefined,
    viewer: Viewer,
    profile: UserProfile,
  ): Promise<string> {
    const ids = recipeIdsIn(messages.filter((m) => m.role === 'tool').map((m) => m.content));
    const seen = await this.#deps.recipes.getManyVisible(ids, viewer);
    return guardReply(reply, [...(pinned ? [pinned] : []), ...seen.values()], profile);
  }

  async #session(userId: string, ref: string | number): Promise<ChatSessionRow> {
    const parsed = parseSessionRef(ref);
    const session = parsed ? await this.#repo.findSession(userId, parsed) : undefined;
    if (!session) throw notFound('Chat session');
    return session;
  }

  /**
   * The recipe the exchange is about: the one this message names (null: none), else the one the
   * session pinned earlier while the user can still see it.
   */
  async #pinned(
    ref: string | number | null | undefined,
    session: ChatSessionRow | undefined,
    viewer: Viewer,
  ): Promise<RecipeForUse | undefined> {
    if (ref === null) return undefined;
    if (ref !== undefined) return this.#pinnedRecipe(ref, viewer);
    if (!session?.pinned_recipe_id) return undefined;
    return this.#deps.recipes.getVisible(session.pinned_recipe_id, viewer);
  }

  /** Recipes expose no integer number, so only a uuid can name one. */
  async #pinnedRecipe(ref: string | number, viewer: Viewer): Promise<RecipeForUse> {
    const recipe =
      typeof ref === 'string' && isUuid(ref) ? await this.#deps.recipes.getVisible(ref, viewer) : undefined;
    if (!recipe) throw notFound('Recipe');
    return recipe;
  }
}

export function parseSessionRef(ref: string | number): { uuid: string } | { number: number } | undefined {
  if (typeof ref === 'number') return Number.isSafeInteger(ref) ? { number: ref } : undefined;
  if (/^\d{1,10}$/.test(ref)) return { number: Number(ref) };
  return isUuid(ref) ? { uuid: ref.toLowerCase() } : undefined;
}

export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

export function secondsToNextUtcMidnight(at: Date): number {
  const next = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - at.getTime()) / 1000));
}

/** The session title: the first message, whitespace collapsed, cut at a word near 60 characters. */
export function titleFrom(message: string): string {
  const text = message.replace(/\s+/g, ' ').trim();
  if (text.length <= TITLE_LENGTH) return text;
  const cut = text.slice(0, TITLE_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Stored timestamps keep the exchange's order even when the clock is coarse or frozen in tests. */
function laterThan(start: Date, now: Date): Date {
  return now.getTime() > start.getTime() ? now : new Date(start.getTime() + 1);
}
