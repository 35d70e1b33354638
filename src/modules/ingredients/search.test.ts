import { describe, expect, it } from 'vitest';
import { buildSearchIndex, searchIngredients, trigrams } from './search.ts';
import { INGREDIENTS } from './seed/ingredients.ts';
import { seedToInfo } from './service.ts';

const index = buildSearchIndex(INGREDIENTS.map(seedToInfo));
const names = (q: string, limit = 100) => searchIngredients(index, q, limit, 0).items.map((i) => i.name);

describe('ingredient search', () => {
  it('builds pg_trgm-style trigrams', () => {
    expect([...trigrams('Garlic')].sort()).toEqual(['  g', ' ga', 'arl', 'gar', 'ic ', 'lic', 'rli'].sort());
    expect(trigrams('%').size).toBe(0);
  });

  it('ranks exact name, exact alias, prefixes, substrings, then fuzzy matches', () => {
    const onion = names('onion');
    expect(onion[0]).toBe('onion');
    expect(onion.indexOf('red onion')).toBeGreaterThan(0);
    expect(names('scallions')[0]).toBe('spring onion'); // alias
    expect(names('tomatoe')).toContain('tomato'); // 6 of 8 trigrams
    expect(names('garlik')[0]).toBe('garlic'); // 5 of 7
    expect(names('JALAPEÑO').some((n) => n.includes('jalape'))).toBe(true);
  });

  it('finds ingredients by their names in other languages', () => {
    expect(names('Zwiebel')[0]).toBe('onion');
    expect(names('knoflook')[0]).toBe('garlic');
    expect(names('farine')[0]).toBe('all-purpose flour');
    expect(names('mantequilla')[0]).toBe('butter');
    expect(names('pomodoro')[0]).toBe('tomato');
    expect(names('açúcar')[0]).toBe('sugar');
  });

  it('finds ingredients by their Arabic and Persian names', () => {
    expect(names('ثوم')[0]).toBe('garlic');
    expect(names('طماطم')[0]).toBe('tomato');
    expect(names('خرما')[0]).toBe('date');
    expect(names('چای')[0]).toBe('black tea');
  });

  it('finds nothing for unrelated text; wildcards are literal', () => {
    expect(searchIngredients(index, 'zzqqxx', 20, 0)).toEqual({ items: [], total: 0 });
    expect(
      names('%').every(
        (n) => n.includes('%') || INGREDIENTS.find((s) => s.name === n)!.aliases.some((a) => a.includes('%')),
      ),
    ).toBe(true);
    expect(names('%').length).toBeGreaterThan(0);
  });

  it('pages consistently and lists everything by name without a query', () => {
    const all = searchIngredients(index, '', 1000, 0);
    expect(all.total).toBe(INGREDIENTS.length);
    const sorted = [...all.items.map((i) => i.name)].sort();
    expect(all.items.map((i) => i.name)).toEqual(sorted);
    const page = searchIngredients(index, 'oil', 5, 5);
    expect(page.items.map((i) => i.name)).toEqual(names('oil').slice(5, 10));
    expect(page.total).toBe(names('oil').length);
  });
});
