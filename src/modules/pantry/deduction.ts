import type { IngredientInfo } from '../ingredients/contract.ts';
import type { DeductionLine } from './contract.ts';
import { convertFor, EPSILON, roundQuantity } from './measure.ts';

export interface StockRow {
  id: string;
  ingredientId: number;
  quantity: number;
  unit: string;
}

export interface DeductionPlan {
  /** New quantities of rows that keep some stock. */
  reduced: Map<string, number>;
  /** Rows that reach zero and are removed. */
  emptied: string[];
  /** How many lines took anything. */
  deductedLines: number;
  /** Per line: how much was taken from the pantry and how much it lacked, in the line's unit. */
  lines: { ingredientId: number; unit: string; taken: number; missing: number }[];
}

/**
 * Decides what a deduction takes, without touching the database. `rows` come in the order stock is
 * used (soonest expiry first, undated last, then oldest). Each line takes from the rows of its
 * ingredient in that order, converting its remaining need into each row's unit; a row whose unit
 * the line cannot be converted into is skipped, so a line that converts into none of them takes
 * nothing and is not counted.
 */
export function planDeduction(
  rows: readonly StockRow[],
  lines: readonly DeductionLine[],
  ingredients: ReadonlyMap<number, IngredientInfo>,
): DeductionPlan {
  const stock = new Map(rows.map((r) => [r.id, r.quantity]));
  let deductedLines = 0;
  const outcomes: DeductionPlan['lines'] = [];
  for (const line of lines) {
    if (!(line.quantity > 0)) continue;
    const ingredient = ingredients.get(line.ingredientId);
    let remaining = line.quantity;
    let took = false;
    for (const row of rows) {
      if (remaining <= EPSILON) break;
      const have = stock.get(row.id) ?? 0;
      if (row.ingredientId !== line.ingredientId || have <= EPSILON) continue;
      const need = convertFor(remaining, line.unit, row.unit, ingredient);
      if (need === undefined || !(need > 0)) continue;
      const take = Math.min(have, need);
      stock.set(row.id, have - take);
      // What is still needed, back in the line's unit: the untaken share of this row's need.
      remaining *= 1 - take / need;
      took = true;
    }
    if (took) deductedLines += 1;
    outcomes.push({
      ingredientId: line.ingredientId,
      unit: line.unit,
      taken: roundQuantity(line.quantity - remaining),
      missing: remaining > EPSILON ? roundQuantity(remaining) : 0,
    });
  }

  const reduced = new Map<string, number>();
  const emptied: string[] = [];
  for (const row of rows) {
    const left = stock.get(row.id) ?? 0;
    if (left === row.quantity) continue;
    const rounded = roundQuantity(left);
    if (rounded <= EPSILON) emptied.push(row.id);
    else reduced.set(row.id, rounded);
  }
  return { reduced, emptied, deductedLines, lines: outcomes };
}
