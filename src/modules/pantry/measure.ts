import type { IngredientInfo } from '../ingredients/contract.ts';
import { convertQuantity, normalizeUnit } from '../ingredients/units.ts';
import { invalidField } from '../../platform/errors.ts';

/** Below this a quantity is nothing: float noise from unit conversions, never real stock. */
export const EPSILON = 1e-9;

/** Stored quantities keep 6 decimals: enough for any kitchen unit, and no 1.9999999997 kg. */
export const roundQuantity = (quantity: number): number => Math.round(quantity * 1e6) / 1e6;

/**
 * The canonical spelling of a unit the ingredient can be measured in: a known unit that converts
 * to the ingredient's default unit (g/ml/piece) through its reference data. Anything else is a 400
 * on `field`, because stock in such a unit could never be deducted or merged.
 */
export function measurableUnit(unit: string, ingredient: IngredientInfo, field = 'unit'): string {
  const key = unit.trim().toLowerCase();
  // A known unit, or a measure only this ingredient names (the "lemon" of lemon juice).
  const normalized = normalizeUnit(unit) ?? (ingredient.measures[key] !== undefined ? key : undefined);
  if (normalized && convertQuantity(1, normalized, ingredient.defaultUnit, ingredient) !== undefined) {
    return normalized;
  }
  throw invalidField(field, `"${unit}" is not a unit ${ingredient.name} can be measured in`);
}

/** `quantity` of `from` expressed in `to`, or undefined when the two cannot be converted. */
export function convertFor(
  quantity: number,
  from: string,
  to: string,
  ingredient: IngredientInfo | undefined,
): number | undefined {
  if (from === to) return quantity;
  const converted = convertQuantity(quantity, from, to, ingredient);
  return converted !== undefined && Number.isFinite(converted) ? converted : undefined;
}
