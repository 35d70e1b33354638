import { describe, expect, it } from 'vitest';
import { normalizeName } from '../names.ts';
import { INGREDIENTS } from './ingredients.ts';
import { INGREDIENT_NAMES_AR_FA } from './names-ar-fa.ts';
import { INGREDIENT_NAMES_I18N, translatedNames } from './names-i18n.ts';
import { INGREDIENT_NAMES_MORE } from './names-more.ts';

describe('ingredient names in other languages', () => {
  it('name reference ingredients that exist, in every language', () => {
    const names = new Set(INGREDIENTS.map((i) => i.name));
    for (const [name, ...cells] of [...INGREDIENT_NAMES_I18N, ...INGREDIENT_NAMES_MORE, ...INGREDIENT_NAMES_AR_FA]) {
      expect(names, name).toContain(name);
      expect(cells.every((c) => c.trim().length > 0), name).toBe(true);
    }
    expect(INGREDIENT_NAMES_I18N.length).toBeGreaterThanOrEqual(200);
  });

  it('never take a name or alias English gives another ingredient, nor one another row takes', () => {
    const english = new Map<string, string>();
    for (const i of INGREDIENTS)
      for (const n of [i.name, ...i.aliases]) if (!english.has(normalizeName(n))) english.set(normalizeName(n), i.name);
    const taken = new Map<string, string>();
    const clashes: string[] = [];
    for (const name of new Set([...INGREDIENT_NAMES_I18N, ...INGREDIENT_NAMES_MORE, ...INGREDIENT_NAMES_AR_FA].map(([n]) => n))) {
      for (const alias of translatedNames(name)) {
        const key = normalizeName(alias);
        const other = english.get(key) ?? taken.get(key);
        if (other && other !== name) clashes.push(`${alias}: ${name} / ${other}`);
        taken.set(key, name);
      }
    }
    expect(clashes).toEqual([]);
  });
});
