import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { UserProfile } from '../accounts/service.ts';
import type { ChatRepository, SpendRow } from './repository.ts';

/** One group of the spend report: model calls, tokens and estimated USD. */
const SpendFigures = z.object({
  calls: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost_usd: z.number().describe('estimated from MODEL_PRICES at the time of each call'),
});

export const SpendReportSchema = z.object({
  from: z.string().describe('first UTC day of the report (YYYY-MM-DD)'),
  to: z.string().describe('last UTC day (today)'),
  totals: SpendFigures,
  by_feature: z.array(SpendFigures.extend({ feature: z.string() })),
  by_day: z.array(SpendFigures.extend({ day: z.string() })),
  top_users: z.array(
    SpendFigures.extend({ user_id: z.uuid(), email: z.string().nullable(), tier: z.string().nullable() }),
  ),
});
export type SpendReport = z.infer<typeof SpendReportSchema>;

export const SpendQuery = z.object({
  days: z.coerce.number().int().min(1).max(366).default(7).describe('UTC days back, today included'),
  limit: z.coerce.number().int().min(1).max(100).default(10).describe('top spenders listed'),
});

/**
 * What the language model costs: per day, feature and user, from llm_usage. The operators'
 * console shows the same report.
 */
export class SpendService {
  readonly #repo: ChatRepository;
  readonly #profile: (userId: string) => Promise<UserProfile | undefined>;
  readonly #now: () => Date;
  constructor(
    repo: ChatRepository,
    profile: (userId: string) => Promise<UserProfile | undefined>,
    now: () => Date,
  ) {
    this.#repo = repo;
    this.#profile = profile;
    this.#now = now;
  }

  async report(days: number, limit: number): Promise<SpendReport> {
    const today = this.#now();
    const to = today.toISOString().slice(0, 10);
    const from = new Date(today.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
    const [totals, features, perDay, users] = await Promise.all([
      this.#repo.spendTotals(from, to, 'all'),
      this.#repo.spendTotals(from, to, 'purpose'),
      this.#repo.spendTotals(from, to, 'day'),
      this.#repo.spendTotals(from, to, 'user_id', limit),
    ]);
    const topUsers = await Promise.all(
      users.map(async (row) => {
        const profile = await this.#profile(row.key);
        return {
          ...figures(row),
          user_id: row.key,
          email: profile?.email ?? null,
          tier: profile?.tier ?? null,
        };
      }),
    );
    return {
      from,
      to,
      totals: figures(totals[0]),
      by_feature: features.map((row) => ({ ...figures(row), feature: row.key })),
      by_day: perDay.map((row) => ({ ...figures(row), day: row.key })),
      top_users: topUsers,
    };
  }
}

function figures(row: SpendRow | undefined) {
  return {
    calls: Number(row?.calls ?? 0),
    input_tokens: Number(row?.input_tokens ?? 0),
    output_tokens: Number(row?.output_tokens ?? 0),
    cost_usd: Math.round(Number(row?.cost_usd ?? 0) * 1e6) / 1e6,
  };
}

export async function spendRoutes(app: FastifyInstance, options: { spend: SpendService }): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get('/api/admin/spend', {
    config: { auth: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Language-model spend: totals, per feature, per day and the top users',
      description:
        'Tokens and estimated cost (MODEL_PRICES, USD per million tokens) of every model call made ' +
        'for a user (chat, recipe, plan) over the last `days` UTC days, today included.',
      querystring: SpendQuery,
      response: { 200: SpendReportSchema },
    },
    handler: async (request) => options.spend.report(request.query.days, request.query.limit),
  });
}
