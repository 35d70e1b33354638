import type { InventoryItem } from './schemas.ts';
import type { PantryItem } from './service.ts';

export function presentInventoryItem(item: PantryItem): InventoryItem {
  return {
    id: item.id,
    ingredient_id: item.ingredientId,
    name: item.name,
    quantity: item.quantity,
    unit: item.unit,
    location: item.location as InventoryItem['location'],
    expiry_date: item.expiryDate,
    is_expiring_soon: item.isExpiringSoon,
    added_at: item.addedAt.toISOString(),
  };
}
