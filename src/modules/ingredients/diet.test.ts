import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IngredientInfo } from './contract.ts';
import { allergensExcludedBy, DIETARY_RESTRICTIONS, recipeDietProfile, violatesProfile } from './diet.ts';
import { INGREDIENTS } from './seed/ingredients.ts';
import { ALLERGENS, DIET_FACTS } from './seed/types.ts';
import { seedToInfo } from './service.ts';

const byName = new Map(INGREDIENTS.map((s) => [s.name, seedToInfo(s)]));
const ing = (name: string): IngredientInfo => {
  const hit = byName.get(name);
  if (!hit) throw new Error(`no seed ingredient ${name}`);
  return hit;
};
const fitsOf = (names: string[], carbs = 50) => recipeDietProfile(names.map(ing), carbs).fits;
const allergensOf = (names: string[]) => recipeDietProfile(names.map(ing), 0).allergens;
const synthetic = (allergens: string[], diet: string[]): IngredientInfo => ({
  id: 0,
  name: 'x',
  aliases: [],
  category: 'other',
  defaultUnit: 'g',
  nutrition: { kcal: 0, protein: 0, carbs: 0, fat: 0, fiber: 0 },
  allergens,
  diet,
  density: null,
  pieceGrams: null,
  measures: {},
});
const firstWith = (pred: (i: IngredientInfo) => boolean) => {
  const hit = [...byName.values()].find(pred);
  if (!hit) throw new Error('no such seed ingredient');
  return hit.name;
};

const chicken = firstWith((i) => i.diet.includes('poultry'));
const porkItem = firstWith((i) => i.diet.includes('pork'));
const beef = firstWith(
  (i) => i.diet.includes('meat') && !i.diet.includes('pork') && !i.diet.includes('poultry'),
);
const salmon = firstWith((i) => i.diet.includes('fish'));
const shrimp = firstWith((i) => i.diet.includes('shellfish'));
const wine = firstWith((i) => i.diet.includes('alcohol'));
const honey = firstWith((i) => i.diet.includes('honey'));
const peanut = firstWith((i) => i.allergens.includes('peanuts'));
const almond = firstWith((i) => i.allergens.includes('tree_nuts'));
const barley = firstWith((i) => i.allergens.includes('gluten') && !i.allergens.includes('wheat'));

describe('recipeDietProfile on real ingredients', () => {
  it('a plain vegetable dish fits every diet but the carb-bound ones at 50 g carbs', () => {
    expect(fitsOf(['garlic', 'onion', 'tomato', 'olive oil'])).toEqual([
      'vegetarian',
      'vegan',
      'pescatarian',
      'gluten_free',
      'dairy_free',
      'nut_free',
      'halal',
      'kosher',
    ]);
  });

  it('meat excludes vegetarian, vegan and pescatarian; pork also halal and kosher', () => {
    const withBeef = fitsOf([beef, 'onion']);
    expect(withBeef).not.toContain('vegetarian');
    expect(withBeef).not.toContain('vegan');
    expect(withBeef).not.toContain('pescatarian');
    expect(withBeef).toContain('halal');
    expect(withBeef).toContain('kosher');
    const withPork = fitsOf([porkItem]);
    expect(withPork).not.toContain('halal');
    expect(withPork).not.toContain('kosher');
    expect(fitsOf([chicken])).not.toContain('pescatarian');
  });

  it('fish: pescatarian but not vegetarian; shellfish: not kosher', () => {
    const fish = fitsOf([salmon]);
    expect(fish).toContain('pescatarian');
    expect(fish).not.toContain('vegetarian');
    expect(fish).toContain('kosher');
    expect(fitsOf([shrimp])).not.toContain('kosher');
    expect(fitsOf([shrimp])).toContain('pescatarian');
  });

  it('dairy or eggs or honey: vegetarian, not vegan; dairy is not dairy_free', () => {
    for (const name of ['butter', 'egg', honey]) {
      const fits = fitsOf([name]);
      expect(fits).toContain('vegetarian');
      expect(fits).not.toContain('vegan');
    }
    expect(fitsOf(['butter'])).not.toContain('dairy_free');
    expect(fitsOf(['egg'])).toContain('dairy_free');
  });

  it('kosher forbids meat with dairy, not each alone', () => {
    expect(fitsOf([beef])).toContain('kosher');
    expect(fitsOf(['butter'])).toContain('kosher');
    expect(fitsOf([beef, 'butter'])).not.toContain('kosher');
    expect(fitsOf([chicken, 'butter'])).not.toContain('kosher');
    expect(fitsOf([salmon, 'butter'])).toContain('kosher');
  });

  it('alcohol is not halal', () => {
    expect(fitsOf([wine])).not.toContain('halal');
    expect(fitsOf([wine])).toContain('kosher');
  });

  it('wheat flour and barley are not gluten_free; nuts are not nut_free', () => {
    expect(fitsOf(['all-purpose flour'])).not.toContain('gluten_free');
    expect(fitsOf([barley])).not.toContain('gluten_free');
    expect(fitsOf([peanut])).not.toContain('nut_free');
    expect(fitsOf([almond])).not.toContain('nut_free');
  });

  it('keto at ≤ 20 g carbs a serving, low_carb at ≤ 40 g', () => {
    const at = (carbs: number) => recipeDietProfile([ing('onion')], carbs).fits;
    expect(at(20)).toEqual(expect.arrayContaining(['keto', 'low_carb']));
    expect(at(20.01)).not.toContain('keto');
    expect(at(40)).toContain('low_carb');
    expect(at(40.01)).not.toContain('low_carb');
    expect(at(Number.NaN)).not.toContain('low_carb');
  });

  it('collects allergens as a sorted union, with implied ones', () => {
    expect(allergensOf(['all-purpose flour', 'butter', 'garlic'])).toEqual(['dairy', 'gluten', 'wheat']);
    expect(allergensOf([peanut])).toEqual(expect.arrayContaining(['nuts', 'peanuts']));
    expect(allergensOf([peanut])).not.toContain('tree_nuts');
    expect(allergensOf([])).toEqual([]);
  });

  it('fails safe on incomplete tags: unnamed nuts count as both kinds, wheat as gluten, a fish allergen as fish', () => {
    const nuts = recipeDietProfile([synthetic(['nuts'], [])], 0);
    expect(nuts.allergens).toEqual(['nuts', 'peanuts', 'tree_nuts']);
    expect(recipeDietProfile([synthetic(['wheat'], [])], 0).allergens).toEqual(['gluten', 'wheat']);
    const fishy = recipeDietProfile([synthetic(['fish'], [])], 0).fits;
    expect(fishy).not.toContain('vegetarian');
    expect(fishy).not.toContain('vegan');
    expect(recipeDietProfile([synthetic([], ['pork'])], 0).fits).not.toContain('pescatarian');
    expect(recipeDietProfile([synthetic(['eggs'], [])], 0).fits).not.toContain('vegan');
  });
});

describe('violatesProfile', () => {
  const profile = (names: string[], carbs = 10) => recipeDietProfile(names.map(ing), carbs);
  const user = (allergies: string[], dietaryRestrictions: string[] = []) => ({
    allergies,
    dietaryRestrictions,
  });

  it('is empty for a safe recipe and an unconstrained user', () => {
    expect(violatesProfile(profile(['onion']), user([]))).toEqual([]);
    expect(violatesProfile(profile([peanut]), user([]))).toEqual([]);
  });

  it('a nuts allergy excludes peanuts and tree nuts', () => {
    expect(allergensExcludedBy('nuts')).toEqual(['nuts', 'peanuts', 'tree_nuts']);
    expect(violatesProfile(profile([peanut]), user(['nuts']))).toHaveLength(1);
    expect(violatesProfile(profile([almond]), user(['nuts']))).toHaveLength(1);
  });

  it('peanuts and tree_nuts allergies exclude only their own kind', () => {
    expect(violatesProfile(profile([peanut]), user(['peanuts']))).toHaveLength(1);
    expect(violatesProfile(profile([almond]), user(['peanuts']))).toEqual([]);
    expect(violatesProfile(profile([almond]), user(['tree_nuts']))).toHaveLength(1);
    expect(violatesProfile({ allergens: ['nuts'], fits: [] }, user(['peanuts']))).toHaveLength(1);
  });

  it('gluten excludes gluten and wheat; wheat excludes wheat only', () => {
    expect(violatesProfile(profile(['all-purpose flour']), user(['gluten']))).toHaveLength(1);
    expect(violatesProfile(profile([barley]), user(['gluten']))).toHaveLength(1);
    expect(violatesProfile(profile([barley]), user(['wheat']))).toEqual([]);
    expect(violatesProfile(profile(['all-purpose flour']), user(['wheat']))).toHaveLength(1);
    expect(violatesProfile({ allergens: ['wheat'], fits: [] }, user(['gluten']))).toHaveLength(1);
  });

  it('every other allergy by its own tag', () => {
    expect(violatesProfile(profile([shrimp]), user(['shellfish']))).toEqual([
      'contains shellfish (shellfish allergy)',
    ]);
    expect(violatesProfile(profile(['butter']), user(['dairy']))).toHaveLength(1);
    expect(violatesProfile(profile(['egg']), user(['eggs']))).toHaveLength(1);
    expect(violatesProfile(profile(['butter']), user(['eggs', 'sesame', 'soy']))).toEqual([]);
  });

  it('names each restriction the recipe does not fit', () => {
    expect(
      violatesProfile(profile([beef, 'butter'], 50), user([], ['vegetarian', 'kosher', 'keto', 'halal'])),
    ).toEqual(['not vegetarian', 'not kosher', 'not keto']);
    expect(violatesProfile(profile(['onion']), user([], ['made_up_diet']))).toEqual(['not made_up_diet']);
  });
});

describe('safety properties (fast-check)', () => {
  const ingredientArb = fc
    .record({
      allergens: fc.subarray([...ALLERGENS]),
      diet: fc.subarray([...DIET_FACTS]),
    })
    .map(({ allergens, diet }) => synthetic(allergens, diet));
  const realArb = fc.constantFrom(...byName.values());
  const recipeArb = fc.array(fc.oneof(ingredientArb, realArb), { maxLength: 8 });
  const userArb = fc.record({
    allergies: fc.subarray([...ALLERGENS]),
    dietaryRestrictions: fc.subarray([...DIETARY_RESTRICTIONS]),
  });
  const carbsArb = fc.double({ min: 0, max: 200, noNaN: true });
  // The brief's table, written out independently of diet.ts so that the property checks it.
  const excludedBy = (allergy: string): string[] =>
    ({ nuts: ['nuts', 'peanuts', 'tree_nuts'], gluten: ['gluten', 'wheat'], wheat: ['wheat'] })[allergy] ?? [
      allergy,
    ];

  it('a recipe that violates nothing contains no allergen any of the user’s allergies excludes', () => {
    fc.assert(
      fc.property(recipeArb, userArb, carbsArb, (ingredients, u, carbs) => {
        if (violatesProfile(recipeDietProfile(ingredients, carbs), u).length > 0) return;
        for (const allergy of u.allergies) {
          for (const ingredient of ingredients) {
            for (const tag of excludedBy(allergy)) expect(ingredient.allergens).not.toContain(tag);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a recipe that violates nothing honours each restriction ingredient by ingredient', () => {
    const forbidden: Record<string, (i: IngredientInfo) => boolean> = {
      vegetarian: (i) => ['meat', 'pork', 'poultry', 'fish', 'shellfish'].some((f) => i.diet.includes(f)),
      vegan: (i) =>
        ['animal_product', 'meat', 'pork', 'poultry', 'fish', 'shellfish', 'dairy', 'egg', 'honey'].some(
          (f) => i.diet.includes(f),
        ) || ['fish', 'shellfish', 'dairy', 'eggs'].some((a) => i.allergens.includes(a)),
      pescatarian: (i) => ['meat', 'pork', 'poultry'].some((f) => i.diet.includes(f)),
      gluten_free: (i) =>
        i.diet.includes('gluten') || ['gluten', 'wheat'].some((a) => i.allergens.includes(a)),
      dairy_free: (i) => i.diet.includes('dairy') || i.allergens.includes('dairy'),
      nut_free: (i) => ['nuts', 'peanuts', 'tree_nuts'].some((a) => i.allergens.includes(a)),
      halal: (i) => i.diet.includes('pork') || i.diet.includes('alcohol'),
      kosher: (i) =>
        i.diet.includes('pork') || i.diet.includes('shellfish') || i.allergens.includes('shellfish'),
    };
    fc.assert(
      fc.property(recipeArb, userArb, carbsArb, (ingredients, u, carbs) => {
        if (violatesProfile(recipeDietProfile(ingredients, carbs), u).length > 0) return;
        for (const restriction of u.dietaryRestrictions) {
          const bad = forbidden[restriction];
          if (bad) for (const i of ingredients) expect(bad(i)).toBe(false);
        }
        if (u.dietaryRestrictions.includes('keto')) expect(carbs).toBeLessThanOrEqual(20);
        if (u.dietaryRestrictions.includes('low_carb')) expect(carbs).toBeLessThanOrEqual(40);
        if (u.dietaryRestrictions.includes('kosher')) {
          const meat = ingredients.some((i) => ['meat', 'pork', 'poultry'].some((f) => i.diet.includes(f)));
          const dairy = ingredients.some((i) => i.diet.includes('dairy') || i.allergens.includes('dairy'));
          expect(meat && dairy).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('adding an ingredient never removes an allergen nor adds a fit', () => {
    fc.assert(
      fc.property(recipeArb, fc.oneof(ingredientArb, realArb), carbsArb, (ingredients, extra, carbs) => {
        const before = recipeDietProfile(ingredients, carbs);
        const after = recipeDietProfile([...ingredients, extra], carbs);
        for (const a of before.allergens) expect(after.allergens).toContain(a);
        for (const f of after.fits) expect(before.fits).toContain(f);
      }),
      { numRuns: 1000 },
    );
  });

  it('fits only contains contract restrictions, and every allergen of each ingredient is reported', () => {
    fc.assert(
      fc.property(recipeArb, carbsArb, (ingredients, carbs) => {
        const p = recipeDietProfile(ingredients, carbs);
        for (const f of p.fits) expect(DIETARY_RESTRICTIONS).toContain(f);
        for (const i of ingredients) for (const a of i.allergens) expect(p.allergens).toContain(a);
      }),
      { numRuns: 1000 },
    );
  });
});
