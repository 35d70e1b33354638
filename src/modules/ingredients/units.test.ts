import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INGREDIENTS } from './seed/ingredients.ts';
import { seedToInfo } from './service.ts';
import { convertQuantity, normalizeUnit, toGrams, unitKind } from './units.ts';

const ingredient = (name: string) => {
  const seed = INGREDIENTS.find((i) => i.name === name);
  if (!seed) throw new Error(`no seed ingredient ${name}`);
  return seedToInfo(seed);
};
const flour = ingredient('all-purpose flour'); // density 0.53
const egg = ingredient('egg'); // piece 50 g, medium 44
const garlic = ingredient('garlic'); // clove 3 g, bulb 40 g, piece 40 g, density 0.57
const onion = ingredient('onion'); // piece 110 g, density 0.68
const butter = ingredient('butter'); // stick 113 g, density 0.96
const salt = ingredient('salt'); // pinch 0.4 g, density 1.23
const milk = ingredient('milk'); // density 1.03

describe('normalizeUnit', () => {
  it.each([
    ['g', 'g'],
    ['gram', 'g'],
    ['Grams', 'g'],
    ['kg', 'kg'],
    ['kilograms', 'kg'],
    ['oz', 'oz'],
    ['ounce', 'oz'],
    ['Ounces', 'oz'],
    ['lb', 'lb'],
    ['lbs', 'lb'],
    ['pound', 'lb'],
    ['pounds', 'lb'],
    ['ml', 'ml'],
    ['millilitre', 'ml'],
    ['milliliters', 'ml'],
    ['l', 'l'],
    ['L', 'l'],
    ['litre', 'l'],
    ['liters', 'l'],
    ['tsp', 'tsp'],
    ['teaspoon', 'tsp'],
    ['teaspoons', 'tsp'],
    ['t', 'tsp'],
    ['tbsp', 'tbsp'],
    ['Tbsp', 'tbsp'],
    ['tablespoon', 'tbsp'],
    ['Tablespoons', 'tbsp'],
    ['T', 'tbsp'],
    ['tbs.', 'tbsp'],
    ['cup', 'cup'],
    ['cups', 'cup'],
    ['c.', 'cup'],
    ['fl oz', 'fl oz'],
    ['fluid ounces', 'fl oz'],
    ['fl. oz.', 'fl oz'],
    ['pinch', 'pinch'],
    ['pinches', 'pinch'],
    ['dash', 'dash'],
    ['dashes', 'dash'],
    ['piece', 'piece'],
    ['pieces', 'piece'],
    ['pc', 'piece'],
    ['whole', 'piece'],
    ['each', 'piece'],
    ['clove', 'clove'],
    ['cloves', 'clove'],
    ['can', 'can'],
    ['cans', 'can'],
    ['slice', 'slice'],
    ['slices', 'slice'],
    ['bunch', 'bunch'],
    ['bunches', 'bunch'],
    ['stick', 'stick'],
    ['sticks', 'stick'],
    ['sprig', 'sprig'],
    ['sprigs', 'sprig'],
    ['leaf', 'leaf'],
    ['leaves', 'leaf'],
    ['fillet', 'fillet'],
    ['fillets', 'fillet'],
    ['heads', 'head'],
    ['loaves', 'loaf'],
    ['  Cups ', 'cup'],
    ['quarts', 'quart'],
    ['extra-large', 'extra large'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeUnit(input)).toBe(expected);
  });

  it('answers undefined for words that are not units', () => {
    for (const word of ['', 'blorp', 'garlic', 'chopped', 'ss', 'x'])
      expect(normalizeUnit(word)).toBeUndefined();
  });

  it('classifies units', () => {
    expect(unitKind('Ounces')).toBe('weight');
    expect(unitKind('T')).toBe('volume');
    expect(unitKind('each')).toBe('piece');
    expect(unitKind('cloves')).toBe('measure');
    expect(unitKind('blorp')).toBeUndefined();
  });
});

describe('convertQuantity within one kind (no ingredient needed)', () => {
  it.each([
    [2, 'kg', 'g', 2000],
    [500, 'g', 'kg', 0.5],
    [1, 'lb', 'oz', 453.592 / 28.3495], // 16.0000…
    [8, 'oz', 'g', 226.796],
    [1, 'lb', 'g', 453.592],
    [1, 'tbsp', 'tsp', 14.787 / 4.929], // 3.0
    [1, 'cup', 'ml', 236.588],
    [1, 'l', 'cup', 1000 / 236.588], // 4.2268
    [2, 'fl oz', 'tbsp', (2 * 29.574) / 14.787], // 4.0
    [1.5, 'litres', 'ml', 1500],
    [16, 'tbsp', 'cup', (16 * 14.787) / 236.588], // 1.0000
  ])('%d %s → %s', (q, from, to, expected) => {
    expect(convertQuantity(q, from, to)).toBeCloseTo(expected, 6);
  });

  it('keeps the quantity when the unit does not change (after normalising)', () => {
    expect(convertQuantity(3, 'Cups', 'cup')).toBe(3);
    expect(convertQuantity(3, 'piece', 'pieces')).toBe(3);
  });
});

describe('convertQuantity across kinds through the ingredient', () => {
  it('cups of flour → grams via density: 1 cup = 236.588 ml × 0.53 g/ml = 125.39 g', () => {
    expect(convertQuantity(1, 'cup', 'g', flour)).toBeCloseTo(125.39164, 4);
    expect(convertQuantity(2, 'cups', 'g', flour)).toBeCloseTo(250.78328, 4);
    expect(toGrams(0.5, 'cup', flour)).toBeCloseTo(62.69582, 4);
  });

  it('grams of flour → cups, the inverse', () => {
    expect(convertQuantity(125.39164, 'g', 'cup', flour)).toBeCloseTo(1, 6);
  });

  it('2 eggs → 100 g (50 g a piece); 1 medium egg → 44 g; a large egg falls back to the piece weight', () => {
    expect(toGrams(2, 'piece', egg)).toBe(100);
    expect(toGrams(2, 'whole', egg)).toBe(100);
    expect(toGrams(1, 'medium', egg)).toBe(44);
    expect(toGrams(1, 'large', egg)).toBe(50);
    expect(convertQuantity(150, 'g', 'piece', egg)).toBe(3);
  });

  it('3 cloves garlic → 9 g (3 g a clove); a bulb → 40 g; 100 g garlic → 33.3 cloves', () => {
    expect(toGrams(3, 'cloves', garlic)).toBe(9);
    expect(toGrams(1, 'bulb', garlic)).toBe(40);
    expect(convertQuantity(100, 'g', 'clove', garlic)).toBeCloseTo(33.3333, 4);
  });

  it('chains volume → weight → piece: 1 cup onion = 236.588 × 0.68 = 160.88 g = 1.4625 onions', () => {
    expect(convertQuantity(1, 'cup', 'piece', onion)).toBeCloseTo(160.87984 / 110, 6);
    expect(convertQuantity(2, 'piece', 'cup', onion)).toBeCloseTo(220 / 0.68 / 236.588, 6);
  });

  it('named measures ↔ weight and volume: a stick of butter is 113 g = 117.7 ml = 0.4975 cup', () => {
    expect(toGrams(2, 'sticks', butter)).toBe(226);
    expect(convertQuantity(1, 'stick', 'ml', butter)).toBeCloseTo(113 / 0.96, 6);
    expect(convertQuantity(1, 'stick', 'cup', butter)).toBeCloseTo(113 / 0.96 / 236.588, 6);
  });

  it("an ingredient's own measure wins over the generic one: a pinch of salt is 0.4 g", () => {
    expect(toGrams(1, 'pinch', salt)).toBe(0.4);
    // without that measure, a pinch is 1/16 tsp: 0.30806 ml × 1.23 g/ml
    expect(toGrams(1, 'pinch', { ...salt, measures: {} })).toBeCloseTo((4.929 / 16) * 1.23, 6);
  });

  it('weight ↔ volume for liquids: 1 l milk = 1030 g', () => {
    expect(toGrams(1, 'l', milk)).toBeCloseTo(1030, 6);
    expect(convertQuantity(515, 'g', 'ml', milk)).toBeCloseTo(500, 6);
  });
});

describe('impossible conversions answer undefined', () => {
  it('across kinds without an ingredient', () => {
    expect(convertQuantity(1, 'cup', 'g')).toBeUndefined();
    expect(convertQuantity(1, 'g', 'ml')).toBeUndefined();
    expect(convertQuantity(1, 'piece', 'g')).toBeUndefined();
    expect(toGrams(1, 'clove', undefined)).toBeUndefined();
  });

  it('when the ingredient lacks the link', () => {
    const noDensity = { ...flour, density: null };
    expect(convertQuantity(1, 'cup', 'g', noDensity)).toBeUndefined();
    expect(convertQuantity(1, 'piece', 'g', flour)).toBeUndefined(); // flour is not counted
    expect(convertQuantity(1, 'clove', 'g', onion)).toBeUndefined(); // onions have no cloves
    expect(convertQuantity(1, 'piece', 'cup', { ...onion, density: null })).toBeUndefined();
  });

  it('for unknown units and non-finite quantities', () => {
    expect(convertQuantity(1, 'blorp', 'g', flour)).toBeUndefined();
    expect(convertQuantity(1, 'g', 'blorp', flour)).toBeUndefined();
    expect(convertQuantity(Number.NaN, 'g', 'kg')).toBeUndefined();
  });

  it('accepts a measure only the ingredient names', () => {
    const juice = { ...milk, measures: { lemon: 30 } };
    expect(toGrams(2, 'lemon', juice)).toBe(60);
    expect(toGrams(2, 'lemon', milk)).toBeUndefined();
  });
});

describe('round trips (fast-check)', () => {
  const all = [flour, egg, garlic, onion, butter, salt, milk];
  const units = [
    'g',
    'kg',
    'oz',
    'lb',
    'ml',
    'l',
    'tsp',
    'tbsp',
    'cup',
    'fl oz',
    'piece',
    'clove',
    'stick',
    'pinch',
  ];
  it('converting there and back gives the quantity again whenever both directions are possible', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.001, max: 10_000, noNaN: true }),
        fc.constantFrom(...units),
        fc.constantFrom(...units),
        fc.constantFrom(...all),
        (q, from, to, ing) => {
          const there = convertQuantity(q, from, to, ing);
          if (there === undefined) return;
          const back = convertQuantity(there, to, from, ing);
          expect(back).toBeDefined();
          expect(back!).toBeCloseTo(q, 6);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
