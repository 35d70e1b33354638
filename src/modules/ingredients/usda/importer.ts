import type { ImportOutcome, IngredientsService } from '../service.ts';
import { usdaRecords, type UsdaConversion } from './foods.ts';
import { readSrLegacy } from './sr-legacy.ts';

export interface UsdaImportReport extends ImportOutcome, Omit<UsdaConversion, 'records'> {
  foodsRead: number;
  candidates: number;
  withPortionWeights: boolean;
}

/**
 * Loads an SR Legacy release folder (ABBREV.txt, FOOD_DES.txt, FD_GROUP.txt, optional WEIGHT.txt)
 * as additional ingredients. The reference seed is loaded first so that imported foods can never
 * take a name the seed owns.
 */
export async function importSrLegacy(
  ingredients: IngredientsService,
  dir: string,
  options: { allGroups?: boolean } = {},
): Promise<UsdaImportReport> {
  const release = readSrLegacy(dir);
  const { records, ...skipped } = usdaRecords(release, options);
  await ingredients.seedIngredients();
  const outcome = await ingredients.importFoods(records);
  return {
    foodsRead: release.foods.size,
    candidates: records.length,
    withPortionWeights: release.weights.size > 0,
    ...skipped,
    ...outcome,
  };
}
