import type { ShoppingListItem } from './schemas.ts';
import type { ShoppingItem } from './service.ts';

export function presentShoppingItem(item: ShoppingItem): ShoppingListItem {
  return {
    id: item.id,
    ingredient_id: item.ingredientId,
    name: item.name,
    quantity: item.quantity,
    unit: item.unit,
    is_checked: item.isChecked,
    category: item.category,
    added_at: item.addedAt.toISOString(),
  };
}
