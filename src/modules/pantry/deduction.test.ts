import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IngredientInfo } from '../ingredients/contract.ts';
import { subtractStock, sumAmounts } from '../shopping/needs.ts';
import { planDeduction, type StockRow } from './deduction.ts';

/** Reference facts of white rice (id 322): density 0.78 g/ml, no piece weight. */
const rice: IngredientInfo = {
  id: 322,
  name: 'white rice',
  aliases: [],
  category: 'pantry staples',
  defaultUnit: 'g',
  nutrition: { kcal: 365, protein: 7.13, carbs: 79.95, fat: 0.66, fiber: 1.3 },
  allergens: [],
  diet: [],
  density: 0.78,
  pieceGrams: null,
  measures: {},
};
const ingredients = new Map([[rice.id, rice]]);
const GRAMS: Record<string, number> = { g: 1, kg: 1000, oz: 28.3495 };

const stockRows = fc.array(
  fc.record({
    quantity: fc.integer({ min: 1, max: 5000 }).map((q) => q / 10),
    unit: fc.constantFrom('g', 'kg', 'oz'),
  }),
  { minLength: 0, maxLength: 6 },
);

describe('planDeduction (pure)', () => {
  it('takes min(need, stock) in grams, emptying rows in order and reducing at most one', () => {
    fc.assert(
      fc.property(stockRows, fc.integer({ min: 1, max: 20_000 }), (raw, needGrams) => {
        const rows: StockRow[] = raw.map((r, i) => ({ id: `r${i}`, ingredientId: rice.id, ...r }));
        const plan = planDeduction(
          rows,
          [{ ingredientId: rice.id, quantity: needGrams, unit: 'g' }],
          ingredients,
        );
        const grams = (row: StockRow, quantity: number) => quantity * GRAMS[row.unit]!;
        const before = rows.reduce((t, r) => t + grams(r, r.quantity), 0);
        const after = rows.reduce((t, r) => {
          if (plan.emptied.includes(r.id)) return t;
          return t + grams(r, plan.reduced.get(r.id) ?? r.quantity);
        }, 0);
        expect(before - after).toBeCloseTo(Math.min(needGrams, before), 2);
        // FIFO: the emptied rows are the first ones, then at most one row is reduced, the rest untouched
        const touched = rows.map((r) =>
          plan.emptied.includes(r.id) ? 'E' : plan.reduced.has(r.id) ? 'R' : '-',
        );
        expect(touched.join('')).toMatch(/^E*R?-*$/);
        expect(plan.deductedLines).toBe(rows.length > 0 ? 1 : 0);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves stock alone for a line it cannot convert (pieces of rice have no weight)', () => {
    const rows: StockRow[] = [{ id: 'a', ingredientId: rice.id, quantity: 1, unit: 'kg' }];
    const plan = planDeduction(rows, [{ ingredientId: rice.id, quantity: 2, unit: 'piece' }], ingredients);
    expect(plan).toEqual({
      reduced: new Map(),
      emptied: [],
      deductedLines: 0,
      // The whole line is reported missing: nothing it could be converted into was there.
      lines: [{ ingredientId: rice.id, unit: 'piece', taken: 0, missing: 2 }],
    });
  });

  it('converts cups into the row unit through the density', () => {
    const rows: StockRow[] = [{ id: 'a', ingredientId: rice.id, quantity: 1, unit: 'kg' }];
    const plan = planDeduction(rows, [{ ingredientId: rice.id, quantity: 1, unit: 'cup' }], ingredients);
    expect(plan.reduced.get('a')).toBeCloseTo(1 - (236.588 * 0.78) / 1000, 6);
  });
});

describe('sumAmounts and subtractStock (pure)', () => {
  it('sums any weights in the default unit and subtracts stock down to zero, never below', () => {
    const amounts = fc.array(
      fc.record({ quantity: fc.integer({ min: 1, max: 3000 }), unit: fc.constantFrom('g', 'kg', 'oz') }),
      {
        minLength: 1,
        maxLength: 6,
      },
    );
    fc.assert(
      fc.property(amounts, stockRows, (needs, stock) => {
        const summed = sumAmounts(
          needs.map((n) => ({ ingredientId: rice.id, ...n })),
          ingredients,
        );
        const needGrams = needs.reduce((t, n) => t + n.quantity * GRAMS[n.unit]!, 0);
        expect(summed).toHaveLength(1);
        expect(summed[0]!.unit).toBe('g');
        expect(summed[0]!.quantity).toBeCloseTo(needGrams, 3);

        const stockGrams = stock.reduce((t, s) => t + s.quantity * GRAMS[s.unit]!, 0);
        const { toBuy, coveredIngredients } = subtractStock(
          summed,
          stock.map((s) => ({ ingredientId: rice.id, ...s })),
          ingredients,
        );
        const missing = needGrams - stockGrams;
        if (missing > 1e-3) {
          expect(toBuy).toHaveLength(1);
          expect(toBuy[0]!.quantity).toBeCloseTo(missing, 3);
          expect(coveredIngredients).toEqual([]);
        } else if (missing < -1e-3) {
          expect(toBuy).toEqual([]);
          expect(coveredIngredients).toEqual([rice.id]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps amounts that cannot be converted into each other apart', () => {
    const summed = sumAmounts(
      [
        { ingredientId: rice.id, quantity: 100, unit: 'g' },
        { ingredientId: rice.id, quantity: 2, unit: 'piece' },
        { ingredientId: rice.id, quantity: 1, unit: 'cup' },
        { ingredientId: rice.id, quantity: 1, unit: 'pieces' },
      ],
      ingredients,
    );
    expect(summed.map((s) => [s.unit, s.quantity])).toEqual([
      ['g', Math.round((100 + 236.588 * 0.78) * 1e6) / 1e6],
      ['piece', 3],
    ]);
  });
});
