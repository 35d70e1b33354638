import { z } from 'zod';
import { IsoDate } from './dates.ts';
import { LOCATIONS } from './tables.ts';

export const Location = z.enum(LOCATIONS);
const quantity = z.number().positive('must be greater than 0').max(1_000_000);
const unit = z.string().trim().min(1, 'must not be empty').max(32);
const ingredientId = z.number().int().positive();

export const InventoryItemSchema = z
  .object({
    id: z.uuid(),
    ingredient_id: z.number().int(),
    name: z.string(),
    quantity: z.number(),
    unit: z.string(),
    location: Location,
    expiry_date: z.string().nullable(),
    is_expiring_soon: z.boolean(),
    added_at: z.string(),
  })
  .meta({ id: 'InventoryItem' });
export type InventoryItem = z.infer<typeof InventoryItemSchema>;

const BooleanQuery = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const blankAsMissing = (v: unknown) => (v === '' ? undefined : v);

export const InventoryQuery = z.object({
  expiring_soon: BooleanQuery.optional(),
  location: Location.optional(),
  limit: z
    .preprocess(blankAsMissing, z.coerce.number().int().min(1).max(100).optional())
    .describe('items per page, 1..100; without it, every item (as before pagination)'),
  offset: z.preprocess(blankAsMissing, z.coerce.number().int().min(0).default(0)),
});

export const InventoryListSchema = z.object({
  items: z.array(InventoryItemSchema),
  expiring_count: z.number().int().describe('items of the whole filtered listing expiring within 3 days'),
  total: z.number().int().describe('items of the whole filtered listing'),
});

export const CreateInventoryBody = z.object({
  ingredient_id: ingredientId,
  quantity,
  unit,
  location: Location.default('pantry'),
  expiry_date: IsoDate.nullable().default(null),
});

export const UpdateInventoryBody = z.object({
  quantity: quantity.optional(),
  unit: unit.optional(),
  location: Location.optional(),
  /** null clears the expiry date. */
  expiry_date: IsoDate.nullable().optional(),
});

export const SyncBody = z.object({
  recipe_id: z.guid('must be a uuid'),
  /** Default: the recipe's own servings (as for cooking). */
  servings: z.number().int().min(1).max(100).optional(),
});

export const SyncResultSchema = z.object({
  updated_items: z.number().int(),
  depleted_items: z.array(z.string()),
});
