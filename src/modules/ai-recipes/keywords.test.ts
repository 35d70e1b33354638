import { describe, expect, it } from 'vitest';
import { violatesProfile, recipeDietProfile } from '../ingredients/diet.ts';
import { guessIngredient, keywordFacts } from './keywords.ts';

describe('keywordFacts (ingredients the reference table does not know)', () => {
  it.each([
    ['satay sauce', ['peanuts'], []],
    ['cashew cream', ['tree_nuts'], []],
    ['fish sauce', ['fish'], ['fish']],
    ['tiger prawns', ['shellfish'], ['shellfish']],
    ['rice noodles', ['wheat', 'gluten'], ['gluten']],
    ['greek yoghurt', ['dairy'], ['dairy']],
    ['smoked pancetta', [], ['meat', 'pork']],
    ['coconut milk', [], []],
    ['butternut squash', [], []],
    ['eggplant', [], []],
    ['buckwheat groats', [], []],
  ])('%s', (name, allergens, diet) => {
    const facts = keywordFacts(name);
    expect(facts.allergens.sort()).toEqual([...allergens].sort());
    expect(facts.diet.sort()).toEqual([...diet].sort());
  });

  it('makes an unknown ingredient unsafe through the shared diet rules', () => {
    const profile = recipeDietProfile([guessIngredient('chorizo sausage')], 10);
    expect(
      violatesProfile(profile, { allergies: [], dietaryRestrictions: ['vegetarian', 'halal'] }),
    ).toHaveLength(2);
    expect(guessIngredient('mystery powder').nutrition.kcal).toBe(0);
  });
});
