import { z } from 'zod';

const quantity = z.number().positive('must be greater than 0').max(1_000_000);
const unit = z.string().trim().min(1, 'must not be empty').max(32);

export const ShoppingListItemSchema = z
  .object({
    id: z.uuid(),
    ingredient_id: z.number().int(),
    name: z.string(),
    quantity: z.number(),
    unit: z.string(),
    is_checked: z.boolean(),
    category: z.string(),
    added_at: z.string(),
  })
  .meta({ id: 'ShoppingListItem' });
export type ShoppingListItem = z.infer<typeof ShoppingListItemSchema>;

export const ShoppingListSchema = z.object({
  items: z.array(ShoppingListItemSchema),
  total_items: z.number().int(),
  checked_items: z.number().int(),
});

export const CreateShoppingItemBody = z.object({
  ingredient_id: z.number().int().positive(),
  quantity,
  unit,
});

export const UpdateShoppingItemBody = z.object({
  quantity: quantity.optional(),
  unit: unit.optional(),
  is_checked: z.boolean().optional(),
});

export const GenerateBody = z.object({ meal_plan_id: z.guid('must be a uuid') });

export const GenerationSchema = z.object({
  added_items: z.number().int(),
  skipped_in_pantry: z.number().int(),
  items: z.array(ShoppingListItemSchema),
});
