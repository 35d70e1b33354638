import { randomUUID } from 'node:crypto';
import type { IngredientInfo } from '../ingredients/contract.ts';
import { convertFor, EPSILON, roundQuantity } from '../pantry/measure.ts';
import type { Amount } from './needs.ts';
import type { ShoppingRow } from './tables.ts';

/** An unchecked row as generation sees it: with this plan's current share of it, if any. */
export interface OpenRow {
  row: ShoppingRow;
  share: number | undefined;
}

/** A row generation creates (its id is chosen here, so that its share can be written alongside). */
export interface NewRow {
  id: string;
  ingredientId: number;
  quantity: number;
  unit: string;
}

/**
 * The writes of one generation, computed in memory so that they run as a few set-based
 * statements, and only for what really changes (regenerating an unchanged plan writes nothing).
 */
export interface GenerationWrites {
  /** Rows left with nothing once the plan's previous share is withdrawn. */
  deleted: string[];
  /** Surviving rows whose quantity changed. */
  quantities: Array<{ id: string; quantity: number }>;
  inserted: NewRow[];
  /** The plan's new share of rows, where it changed. */
  shares: Array<{ itemId: string; quantity: number }>;
  /** Surviving rows that no longer hold a share of the plan. */
  sharesDropped: string[];
  /** Ids of the rows merged into or created, in the order they were touched. */
  touched: string[];
}

interface Working {
  id: string;
  ingredientId: number;
  unit: string;
  quantity: number;
  share: number;
  /** The stored row this stands for (undefined: a new row). */
  before: { quantity: number; share: number; fromPlan: boolean } | undefined;
}

/**
 * The merge rules, applied to all amounts at once: the plan's previous share is taken out of the
 * open rows (a row left with nothing goes), then each amount goes to the first remaining open row
 * of its ingredient whose unit it converts into (list order, new rows last), else to a new row.
 * A row the plan created and the withdrawal emptied stands in for that new row when it has the
 * very unit: same content, but the row keeps its id and nothing is deleted and re-inserted.
 */
export function planGeneration(
  open: readonly OpenRow[],
  toBuy: readonly Amount[],
  ingredients: ReadonlyMap<number, IngredientInfo>,
  planId: string,
): GenerationWrites {
  const rows = open.map((o) => withdrawn(o, planId));
  const live = rows.filter((r) => r.quantity > EPSILON);
  const emptied = rows.filter((r) => r.quantity <= EPSILON);
  const touched = new Set<string>();
  for (const amount of toBuy) {
    const target =
      mergeTarget(live, amount, ingredients) ?? revive(emptied, live, amount) ?? create(live, amount);
    target.row.quantity = roundQuantity(target.row.quantity + target.added);
    target.row.share = roundQuantity(target.row.share + target.added);
    touched.add(target.row.id);
  }
  return writesOf(live, emptied, [...touched]);
}

/** A stored row with the plan's previous share taken out. */
function withdrawn({ row, share }: OpenRow, planId: string): Working {
  const quantity = share === undefined ? row.quantity : roundQuantity(row.quantity - share);
  return {
    id: row.id,
    ingredientId: row.ingredient_id,
    unit: row.unit,
    quantity: quantity <= EPSILON ? 0 : quantity,
    share: 0,
    before: { quantity: row.quantity, share: share ?? 0, fromPlan: row.source_meal_plan_id === planId },
  };
}

type Target = { row: Working; added: number };

function mergeTarget(
  live: readonly Working[],
  amount: Amount,
  ingredients: ReadonlyMap<number, IngredientInfo>,
): Target | undefined {
  const ingredient = ingredients.get(amount.ingredientId);
  for (const row of live) {
    if (row.ingredientId !== amount.ingredientId) continue;
    const added = convertFor(amount.quantity, amount.unit, row.unit, ingredient);
    if (added !== undefined) return { row, added };
  }
  return undefined;
}

/** An emptied row of the plan, same ingredient and unit, takes the place of a new row. */
function revive(emptied: Working[], live: Working[], amount: Amount): Target | undefined {
  const index = emptied.findIndex(
    (r) => r.before?.fromPlan && r.ingredientId === amount.ingredientId && r.unit === amount.unit,
  );
  if (index < 0) return undefined;
  const [row] = emptied.splice(index, 1);
  live.push(row!);
  return { row: row!, added: amount.quantity };
}

function create(live: Working[], amount: Amount): Target {
  const row: Working = {
    id: randomUUID(),
    ingredientId: amount.ingredientId,
    unit: amount.unit,
    quantity: 0,
    share: 0,
    before: undefined,
  };
  live.push(row);
  return { row, added: amount.quantity };
}

function writesOf(
  live: readonly Working[],
  emptied: readonly Working[],
  touched: string[],
): GenerationWrites {
  const stored = live.filter((r) => r.before);
  return {
    deleted: emptied.map((r) => r.id),
    quantities: stored
      .filter((r) => r.quantity !== r.before!.quantity)
      .map((r) => ({ id: r.id, quantity: r.quantity })),
    inserted: live
      .filter((r) => !r.before)
      .map((r) => ({ id: r.id, ingredientId: r.ingredientId, quantity: r.quantity, unit: r.unit })),
    shares: live
      .filter((r) => r.share > 0 && r.share !== r.before?.share)
      .map((r) => ({ itemId: r.id, quantity: r.share })),
    sharesDropped: stored.filter((r) => r.share <= 0 && r.before!.share > 0).map((r) => r.id),
    touched,
  };
}
