import type { IngredientInfo } from '../ingredients/contract.ts';
import { normalizeUnit } from '../ingredients/units.ts';
import { convertFor, EPSILON, roundQuantity } from '../pantry/measure.ts';

/** An amount of one ingredient in one unit. */
export interface Amount {
  ingredientId: number;
  quantity: number;
  unit: string;
}

/**
 * Sums amounts per ingredient. Each ingredient's total is kept in its default unit (g/ml/piece)
 * when the first amount converts into it, else in the first amount's unit; an amount that cannot
 * be converted into any total so far starts a total of its own (so nothing is silently dropped).
 */
export function sumAmounts(
  amounts: readonly Amount[],
  ingredients: ReadonlyMap<number, IngredientInfo>,
): Amount[] {
  const totals: Amount[] = [];
  for (const amount of amounts) {
    if (!(amount.quantity > 0)) continue;
    const ingredient = ingredients.get(amount.ingredientId);
    const unit = normalizeUnit(amount.unit) ?? amount.unit.trim().toLowerCase();
    const existing = totals.find(
      (t) => t.ingredientId === amount.ingredientId && convertFor(1, unit, t.unit, ingredient) !== undefined,
    );
    if (existing) {
      existing.quantity += convertFor(amount.quantity, unit, existing.unit, ingredient)!;
      continue;
    }
    const defaultUnit = ingredient?.defaultUnit;
    const target =
      defaultUnit && convertFor(1, unit, defaultUnit, ingredient) !== undefined ? defaultUnit : unit;
    totals.push({
      ingredientId: amount.ingredientId,
      quantity: convertFor(amount.quantity, unit, target, ingredient)!,
      unit: target,
    });
  }
  return totals.map((t) => ({ ...t, quantity: roundQuantity(t.quantity) }));
}

export interface AfterStock {
  /** What is still to buy. */
  toBuy: Amount[];
  /** Ingredients whose whole need the stock covers. */
  coveredIngredients: number[];
}

/**
 * Takes the stock off the needs. Stock that cannot be converted into a need's unit does not count
 * for it; each unit of stock counts once, whichever need it went to.
 */
export function subtractStock(
  needs: readonly Amount[],
  stock: readonly Amount[],
  ingredients: ReadonlyMap<number, IngredientInfo>,
): AfterStock {
  const left = stock.map((s) => ({ ...s }));
  const toBuy: Amount[] = [];
  const partlyBought = new Set<number>();
  for (const need of needs) {
    const ingredient = ingredients.get(need.ingredientId);
    let missing = need.quantity;
    for (const s of left) {
      if (missing <= EPSILON) break;
      if (s.ingredientId !== need.ingredientId || s.quantity <= EPSILON) continue;
      const available = convertFor(s.quantity, s.unit, need.unit, ingredient);
      if (available === undefined || !(available > 0)) continue;
      const used = Math.min(available, missing);
      missing -= used;
      s.quantity *= 1 - used / available;
    }
    const rounded = roundQuantity(missing);
    if (rounded > EPSILON) {
      toBuy.push({ ...need, quantity: rounded });
      partlyBought.add(need.ingredientId);
    }
  }
  const needed = [...new Set(needs.map((n) => n.ingredientId))];
  return { toBuy, coveredIngredients: needed.filter((id) => !partlyBought.has(id)) };
}
