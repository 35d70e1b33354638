import { z } from 'zod';
import { pagination } from '../../platform/http/ids.ts';

export const StoreSchema = z
  .object({ id: z.uuid(), name: z.string(), logo_url: z.string() })
  .meta({ id: 'Store' });
export type Store = z.infer<typeof StoreSchema>;

export const StoreListItemSchema = StoreSchema.extend({
  last_updated: z.string().describe('Last promotion change, or the store creation'),
  promotion_count: z.number().int().describe('Live promotions that are still valid'),
}).meta({ id: 'StoreListItem' });
export type StoreListItem = z.infer<typeof StoreListItemSchema>;

export const CreateStoreBody = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  logo_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048),
});

export const UploadAcceptedSchema = z.object({
  job_id: z.uuid(),
  status: z.literal('pending'),
  message: z.string(),
});

export const JobSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(['pending', 'processing', 'completed', 'failed']),
    pages_processed: z.number().int(),
    candidates_extracted: z.number().int(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
    error: z
      .string()
      .nullable()
      .describe('Why the job failed (or why the last attempt failed, while retrying)'),
  })
  .meta({ id: 'PromotionJob' });
export type Job = z.infer<typeof JobSchema>;

export const JobListSchema = z.object({ jobs: z.array(JobSchema) });

const money = z.number().positive('must be positive').max(100_000, 'must be at most 100000');

export const CandidateSchema = z
  .object({
    id: z.uuid(),
    job_id: z.uuid().nullable(),
    product: z.string(),
    brand: z.string(),
    original_price: z.number(),
    discounted_price: z.number(),
    unit: z.string(),
    valid_until: z.string(),
    page: z.number().int(),
    confidence: z.number().describe('0..1: how sure the extraction is'),
    box: z
      .object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
      .nullable()
      .describe('where on its page it was read: PDF points, origin top-left; null when unknown'),
    status: z.enum(['candidate', 'live', 'rejected']),
  })
  .meta({ id: 'PromotionCandidate' });
export type Candidate = z.infer<typeof CandidateSchema>;

export const CandidatesQuery = z.object({
  job_id: z.string().optional(),
  include_low_confidence: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('also list candidates below CANDIDATE_MIN_CONFIDENCE (kept for audit)'),
  ...pagination(100, 200),
});
export const CandidateListSchema = z.object({ items: z.array(CandidateSchema), total: z.number().int() });

export const UpdateCandidateBody = z.object({
  product: z.string().trim().min(1).max(200).optional(),
  brand: z.string().trim().max(100).optional(),
  original_price: money.optional(),
  discounted_price: money.optional(),
  unit: z.string().trim().max(50).optional(),
  valid_until: z.iso.date('must be a YYYY-MM-DD date').optional(),
});

export const PromoteBody = z
  .object({
    candidate_ids: z.array(z.uuid('must be a uuid')).min(1).max(1000).optional(),
    job_id: z.uuid('must be a uuid').optional(),
  })
  .refine((b) => (b.candidate_ids === undefined) !== (b.job_id === undefined), {
    message: 'give either candidate_ids or job_id',
    path: ['candidate_ids'],
  });
export const PromoteResponse = z.object({ promoted: z.number().int() });

export const PromotionSchema = z
  .object({
    id: z.uuid(),
    product: z.string(),
    brand: z.string(),
    original_price: z.number(),
    discounted_price: z.number(),
    unit: z.string(),
    valid_until: z.string(),
  })
  .meta({ id: 'Promotion' });
export type Promotion = z.infer<typeof PromotionSchema>;

export const PromotionsQuery = z.object({
  q: z.string().max(100).optional(),
  ...pagination(50, 200),
});
export const PromotionListSchema = z.object({
  store_name: z.string(),
  items: z.array(PromotionSchema),
  total: z.number().int(),
});

export const PricesSchema = z.object({
  items: z.array(
    z.object({
      ingredient_name: z.string(),
      prices: z.array(
        z.object({
          store_name: z.string(),
          price: z.number().describe('Regular (original) price per promotion unit'),
          unit: z.string(),
          discounted_price: z.number().describe('Promotion price per promotion unit'),
          valid_until: z.string(),
        }),
      ),
    }),
  ),
});

export const OptimizeSchema = z.object({
  single_store_best: z.object({
    store_name: z.string().describe('empty when no promotion matches any item'),
    total_price: z.number(),
    coverage_percent: z.number(),
  }),
  multi_store_split: z.array(
    z.object({ store_name: z.string(), items: z.array(z.string()), subtotal: z.number() }),
  ),
  multi_store_total: z.number(),
  savings: z
    .number()
    .describe('single_store_best.total_price − multi_store_total over the same basket, never negative'),
  items: z
    .array(
      z.object({
        ingredient_name: z.string(),
        store_name: z.string().describe('where the split buys it'),
        cost: z.number(),
        reason: z.string(),
        single_store: z.object({
          cost: z.number(),
          basis: z
            .enum(['promotion', 'regular_price'])
            .describe(
              'regular_price: the single store has no offer; the lowest regular price the flyers state',
            ),
        }),
      }),
    )
    .describe('every item some live promotion prices: the basket both options are priced over'),
  unpriced: z.array(z.string()).describe('items no live promotion prices, left out of both totals'),
});
