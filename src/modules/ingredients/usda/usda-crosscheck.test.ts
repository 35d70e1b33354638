import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INGREDIENTS } from '../seed/ingredients.ts';
import { parseAbbrev, readRecords } from './sr-legacy.ts';

const USDA_DIR = path.resolve(import.meta.dirname, '../../../../../shared/data/ingredients');
const ABBREV = path.join(USDA_DIR, 'ABBREV.txt');
const present = existsSync(ABBREV);
if (!present) console.warn(`USDA cross-check skipped: ${ABBREV} is absent`);

/** How far a seed's kcal may stray from its USDA food (some seeds pick a close, not identical, food). */
const KCAL_TOLERANCE = 0.15;

describe('seed ingredients against USDA SR Legacy', () => {
  it.skipIf(!present)('every seed ingredient with usda_ndb is within 15% of that food’s kcal', () => {
    const foods = parseAbbrev(readRecords(ABBREV));
    expect(foods.size).toBeGreaterThan(8000);
    const problems: string[] = [];
    let compared = 0;
    for (const seed of INGREDIENTS) {
      if (!seed.usda_ndb) continue;
      const food = foods.get(seed.usda_ndb);
      if (!food || food.kcal === null) {
        problems.push(`${seed.id} ${seed.name}: NDB ${seed.usda_ndb} not in ABBREV.txt`);
        continue;
      }
      compared += 1;
      // A food USDA lists at 0 kcal (water, salt) allows at most 1 kcal, as a relative error cannot apply.
      const off = food.kcal === 0 ? (seed.kcal <= 1 ? 0 : 1) : Math.abs(seed.kcal - food.kcal) / food.kcal;
      if (off > KCAL_TOLERANCE) {
        problems.push(
          `${seed.id} ${seed.name}: ${seed.kcal} kcal vs ${food.kcal} (${food.ndb} ${food.shortDesc})`,
        );
      }
    }
    // eslint-disable-next-line no-console -- the brief asks for the figure in the test output
    console.log(`USDA cross-check: compared ${compared} seed ingredients with their SR Legacy food`);
    expect(problems).toEqual([]);
    expect(compared).toBeGreaterThan(600);
  });
});
