import type { IngredientInfo } from './contract.ts';
import type { IngredientListItemSchema } from './schemas.ts';
import type { z } from 'zod';

export type IngredientListItem = z.infer<typeof IngredientListItemSchema>;

/** The list item of GET /api/ingredients. */
export function presentListItem(info: IngredientInfo): IngredientListItem {
  return { id: info.id, name: info.name, category: info.category, default_unit: info.defaultUnit };
}
