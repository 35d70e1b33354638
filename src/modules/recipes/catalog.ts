import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { IngredientCatalog } from '../ingredients/contract.ts';
import { recipeValues, resolveUnit, type ResolvedLine } from './composition.ts';
import type { CatalogRecipeValues } from './repository.ts';
import type { RecipeSeed } from './seed/types.ts';

export interface SeedOutcome {
  inserted: number;
  updated: number;
  unchanged: number;
}

const SEED_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'seed');

/**
 * Bumped when the derivation (nutrition, diet profile) changes, so that every seeded recipe is
 * recomputed on the next start.
 */
const DERIVATION_VERSION = 1;

/** Every `seed/catalog-*.ts` file, read at run time so that a new file is picked up as it is. */
export function catalogFiles(dir = SEED_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => /^catalog-.+\.ts$/.test(f) && !f.endsWith('.test.ts'))
    .sort()
    .map((f) => path.join(dir, f));
}

/** The `RECIPES` arrays of every catalog file, concatenated. */
export async function loadCatalogSeeds(dir = SEED_DIR): Promise<RecipeSeed[]> {
  const all: RecipeSeed[] = [];
  for (const file of catalogFiles(dir)) {
    const mod = (await import(pathToFileURL(file).href)) as { RECIPES?: unknown };
    if (!Array.isArray(mod.RECIPES)) {
      throw new Error(`${path.basename(file)} must export \`const RECIPES: RecipeSeed[]\``);
    }
    all.push(...(mod.RECIPES as RecipeSeed[]));
  }
  return all;
}

const SeedSchema = z.object({
  slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be kebab-case'),
  title: z.string().trim().min(1).max(200),
  description: z.string().max(2000),
  cuisine: z.string().trim().min(1).max(50),
  meal_types: z.array(z.enum(['breakfast', 'lunch', 'dinner', 'snack'])).min(1),
  difficulty: z.enum(['easy', 'medium', 'hard']),
  prep_time: z
    .number()
    .int()
    .min(0)
    .max(24 * 60),
  cook_time: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60),
  servings: z.number().int().min(1).max(100),
  ingredients: z
    .array(z.object({ name: z.string().min(1), quantity: z.number().positive(), unit: z.string().min(1) }))
    .min(1),
  steps: z.array(z.string().trim().min(1)).min(1),
});

/**
 * Validates seeds and resolves their ingredient names and units. Every problem of every seed is
 * collected into one error, so that a catalog author sees all of them at once.
 */
export async function prepareSeeds(
  seeds: readonly RecipeSeed[],
  ingredients: IngredientCatalog,
): Promise<CatalogRecipeValues[]> {
  const problems: string[] = [];
  const seen = new Set<string>();
  const out: CatalogRecipeValues[] = [];
  for (const [index, raw] of seeds.entries()) {
    const label = `catalog recipe ${typeof raw?.slug === 'string' ? `"${raw.slug}"` : `#${index}`}`;
    const parsed = SeedSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(
        ...parsed.error.issues.map((i) => `${label}: ${i.path.join('.') || 'value'} ${i.message}`),
      );
      continue;
    }
    const seed = parsed.data;
    if (seen.has(seed.slug)) problems.push(`${label}: duplicate slug`);
    seen.add(seed.slug);
    const lines: ResolvedLine[] = [];
    for (const line of seed.ingredients) {
      const info = await ingredients.resolveName(line.name);
      if (!info) {
        problems.push(`${label}: unknown ingredient "${line.name}"`);
        continue;
      }
      const unit = resolveUnit(line.unit, info);
      if (!unit) problems.push(`${label}: unknown unit "${line.unit}" for "${line.name}"`);
      else lines.push({ info, quantity: line.quantity, unit });
    }
    if (lines.length !== seed.ingredients.length) continue;
    out.push({
      ...recipeValues(
        {
          title: seed.title,
          description: seed.description,
          cuisine: seed.cuisine,
          difficulty: seed.difficulty,
          prepTime: seed.prep_time,
          cookTime: seed.cook_time,
          servings: seed.servings,
          steps: seed.steps,
          isPublic: true,
          mealTypes: seed.meal_types,
        },
        lines,
      ),
      slug: seed.slug,
      seed_hash: seedHash(seed, lines),
      lines: lines.map((l) => ({ ingredient_id: l.info.id, quantity: l.quantity, unit: l.unit })),
    });
  }
  if (problems.length > 0) {
    throw new Error(`The recipe catalog has ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  }
  return out;
}

/** The seed plus the reference data it was derived from: a change to either rewrites the row. */
function seedHash(seed: RecipeSeed, lines: readonly ResolvedLine[]): string {
  const refs = lines.map(({ info }) => [
    info.id,
    info.name,
    info.nutrition,
    info.allergens,
    info.diet,
    info.density,
    info.pieceGrams,
    info.measures,
  ]);
  return createHash('sha256')
    .update(JSON.stringify([DERIVATION_VERSION, seed, refs]))
    .digest('hex');
}
