import type { IngredientRecord } from '../repository.ts';
import { normalizeUnit, VOLUME_UNITS, WEIGHT_UNITS } from '../units.ts';
import { classifyFood } from './classify.ts';
import type { PortionWeight, SrLegacyRelease } from './sr-legacy.ts';

/** Food groups that are not cooking ingredients: baby foods, fast food, restaurant dishes, regional specialities. */
export const EXCLUDED_GROUPS: ReadonlySet<string> = new Set(['0300', '2100', '3500', '3600']);

/** Our ingredient category of each SR Legacy food group. */
const GROUP_CATEGORY: Record<string, string> = {
  '0100': 'dairy & eggs',
  '0200': 'spices & condiments',
  '0400': 'pantry staples',
  '0500': 'meat & fish',
  '0600': 'pantry staples',
  '0700': 'meat & fish',
  '0800': 'pantry staples',
  '0900': 'produce',
  '1000': 'meat & fish',
  '1100': 'produce',
  '1200': 'pantry staples',
  '1300': 'meat & fish',
  '1400': 'drinks',
  '1500': 'meat & fish',
  '1600': 'pantry staples',
  '1700': 'meat & fish',
  '1800': 'bakery',
  '1900': 'pantry staples',
  '2000': 'pantry staples',
};

export function categoryOf(groupCode: string, description: string): string {
  const category = GROUP_CATEGORY[groupCode] ?? 'other';
  if (category === 'produce' && /\bfrozen\b/i.test(description)) return 'frozen';
  return category;
}

export interface UsdaConversion {
  records: IngredientRecord[];
  skippedGroup: number;
  skippedBranded: number;
  skippedNoEnergy: number;
  skippedNoDescription: number;
}

/**
 * SR Legacy foods as ingredient records: name = the long description in lower case, category from
 * the food group, allergens and diet facts from group and description (classify.ts), nutrition per
 * 100 g from ABBREV (missing fibre counts as 0; a food without energy is skipped), density and
 * piece/measure weights from WEIGHT.txt. Branded foods and non-ingredient groups are left out
 * unless `allGroups`.
 */
export function usdaRecords(release: SrLegacyRelease, options: { allGroups?: boolean } = {}): UsdaConversion {
  const out: UsdaConversion = {
    records: [],
    skippedGroup: 0,
    skippedBranded: 0,
    skippedNoEnergy: 0,
    skippedNoDescription: 0,
  };
  for (const food of release.foods.values()) {
    const description = release.descriptions.get(food.ndb);
    if (!description || !description.longDesc) {
      out.skippedNoDescription += 1;
      continue;
    }
    if (!options.allGroups && EXCLUDED_GROUPS.has(description.groupCode)) {
      out.skippedGroup += 1;
      continue;
    }
    if (!options.allGroups && description.manufacturer) {
      out.skippedBranded += 1;
      continue;
    }
    if (food.kcal === null) {
      out.skippedNoEnergy += 1;
      continue;
    }
    const name = description.longDesc.toLowerCase().replace(/\s+/g, ' ').trim();
    const portions = portionsOf(release.weights.get(food.ndb) ?? []);
    const facts = classifyFood(description.groupCode, `${description.longDesc} ${description.commonName}`);
    out.records.push({
      name,
      aliases: commonNames(description.commonName, name),
      category: categoryOf(description.groupCode, description.longDesc),
      default_unit: description.groupCode === '1400' ? 'ml' : 'g',
      kcal: food.kcal,
      protein: food.protein ?? 0,
      carbs: food.carbs ?? 0,
      fat: food.fat ?? 0,
      fiber: food.fiber ?? 0,
      allergens: facts.allergens,
      diet: facts.diet,
      density: portions.density,
      piece_g: portions.pieceGrams,
      measures: portions.measures,
      usda_ndb: food.ndb,
      source: 'usda',
    });
  }
  return out;
}

function commonNames(commonName: string, name: string): string[] {
  return [
    ...new Set(
      commonName
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter((s) => s && s !== name),
    ),
  ];
}

const PIECE_WORDS = new Set(['piece', 'each', 'whole', 'fruit', 'item', 'unit', 'medium']);

/**
 * Density from the first volume portion ("1 cup, chopped" = 160 g → 160 / 236.588 g/ml), the
 * piece weight from a medium / each / whole portion, other named portions (clove, slice, large, ...)
 * as measures in grams per one.
 */
export function portionsOf(portions: readonly PortionWeight[]): {
  density: number | null;
  pieceGrams: number | null;
  measures: Record<string, number>;
} {
  let density: number | null = null;
  let pieceGrams: number | null = null;
  const measures: Record<string, number> = {};
  for (const p of portions) {
    const head = p.measure.toLowerCase().split(/[,(]/)[0]!.trim();
    const words = head.split(/\s+/);
    const rawUnit =
      words.length > 1 && normalizeUnit(words.slice(0, 2).join(' '))
        ? words.slice(0, 2).join(' ')
        : words[0]!;
    const perOne = p.grams / p.amount;
    if (PIECE_WORDS.has(rawUnit)) {
      pieceGrams ??= round(perOne);
      continue;
    }
    const unit = normalizeUnit(rawUnit);
    if (!unit || unit in WEIGHT_UNITS) continue;
    const ml = VOLUME_UNITS[unit];
    if (ml !== undefined) {
      if (unit !== 'pinch' && unit !== 'dash') density ??= round(perOne / ml, 4);
      continue;
    }
    if (unit === 'piece') pieceGrams ??= round(perOne);
    else measures[unit] ??= round(perOne);
  }
  return { density, pieceGrams, measures };
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
