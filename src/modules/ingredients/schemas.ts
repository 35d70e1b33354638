import { z } from 'zod';
import { pagination } from '../../platform/http/ids.ts';

export const IngredientListQuery = z.object({
  q: z.string().trim().max(100, 'must be at most 100 characters').optional(),
  ...pagination(20, 100),
});

export const IngredientListItemSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    category: z.string(),
    default_unit: z.enum(['g', 'ml', 'piece']),
  })
  .meta({ id: 'IngredientListItem' });

export const IngredientListResponse = z.object({
  items: z.array(IngredientListItemSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
