import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { RecipeSeed } from '../recipes/seed/types.ts';
import type { ParsedIngredientLine } from '../ingredients/line-parser.ts';
import { classifyFood } from '../ingredients/usda/classify.ts';
import { recogniseLanguage } from './language.ts';
import {
  parseHtmlRecipes,
  parseJsonLdRecipes,
  parseMarkdownRecipe,
  slugify,
  type SourceRecipe,
} from './sources.ts';

/**
 * Turns recipe files into catalog recipes: each ingredient line is parsed and resolved to a
 * reference ingredient; the recipe is written with the reference names.
 *
 * - A line with an amount that names no reference ingredient is reported and left out.
 * - A recipe is NOT imported when a left-out line looks like food with allergens or diet facts
 *   ("200g scamorza cheese": dairy): its derived allergens would be incomplete, and allergies are
 *   hard constraints. Left-out lines that are not food ("1 cheesecloth") do not block it.
 * - A matched line without an amount ("salt to taste", "Parmesan") is kept with a nominal amount
 *   (1 pinch of a spice or condiment, else 1 piece of a counted ingredient, else 10 g / 10 ml) so
 *   that its allergens and diet facts count.
 * - Missing times are estimated (prep 15 min, cook 30 min), missing servings are 4; difficulty
 *   follows total time and ingredient count; cuisine and meal types come from the tags.
 */

export interface LineReport {
  raw: string;
  parsed: ParsedIngredientLine;
}

export interface RecipeReport {
  file: string;
  slug: string;
  title: string;
  /** Ingredient lines that carry a quantity, and how many of them matched an ingredient. */
  linesWithQuantity: number;
  matchedWithQuantity: number;
  lines: number;
  matched: number;
  unmatched: string[];
  status: 'imported' | 'parsed' | 'skipped' | 'failed';
  reason?: string;
  /** Recognised from the recipe's own text (language.ts). */
  language: string;
}

/**
 * What became of one file. An HTML page without any structured recipe is `no-structured-data`
 * (reported, not counted against the reader); one whose structured recipe lacks ingredients or
 * steps is `empty`.
 */
export interface PageReport {
  file: string;
  status: 'read' | 'empty' | 'no-structured-data' | 'error';
  form?: string | undefined;
  error?: string;
}

export interface LanguageTotals {
  linesWithQuantity: number;
  matchedWithQuantity: number;
}

export interface ImportReport {
  pages: PageReport[];
  recipes: RecipeReport[];
  /** Lines with a quantity and how many matched, per recognised language. */
  languages: Map<string, LanguageTotals>;
  fileErrors: { file: string; error: string }[];
  linesWithQuantity: number;
  matchedWithQuantity: number;
  imported: number;
  skipped: number;
  failed: number;
}

export interface ImportDeps {
  parseLine(text: string): Promise<ParsedIngredientLine>;
  /** The recipes service's catalog upsert; absent for a dry run (parse and report only). */
  upsert?: (seed: RecipeSeed) => Promise<string>;
}

const RECIPE_EXTENSIONS = new Set(['.md', '.markdown', '.json', '.jsonld', '.html', '.htm']);

/** The recipe files at a path: the file itself, or every recipe file of a folder (recursively). */
export function recipeFiles(target: string): string[] {
  const stat = statSync(target);
  if (stat.isFile()) return [target];
  return readdirSync(target, { recursive: true, withFileTypes: true })
    .filter(
      (e) =>
        e.isFile() && RECIPE_EXTENSIONS.has(path.extname(e.name).toLowerCase()) && !e.name.startsWith('_'),
    )
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

export function readRecipeFile(file: string): SourceRecipe[] {
  const text = readFileSync(file, 'utf8');
  const base = path.basename(file, path.extname(file));
  const ext = path.extname(file).toLowerCase();
  if (ext === '.json' || ext === '.jsonld') return parseJsonLdRecipes(text, base);
  if (ext === '.html' || ext === '.htm') return parseHtmlRecipes(text, base);
  return [parseMarkdownRecipe(text, base)];
}

const CUISINES = new Set(
  (
    'italian mexican indian chinese japanese thai french greek american korean vietnamese spanish british ' +
    'english moroccan portuguese german turkish russian swiss dutch austrian hungarian polish swedish ' +
    'norwegian danish finnish irish scottish welsh belgian lebanese persian iranian israeli ethiopian ' +
    'nigerian brazilian argentinian argentine peruvian cuban jamaican caribbean filipino indonesian ' +
    'malaysian singaporean pakistani bangladeshi nepalese georgian armenian ukrainian romanian bulgarian ' +
    'serbian croatian czech slovak maltese tunisian algerian egyptian cajun creole mediterranean ' +
    'asian african latin tex-mex hawaiian canadian australian syrian iraqi afghan sri-lankan chilean colombian venezuelan'
  ).split(/\s+/),
);

export function cuisineOf(source: SourceRecipe): string {
  if (source.cuisine) return source.cuisine.slice(0, 50);
  const tag = source.tags.find((t) => CUISINES.has(t));
  if (tag === 'english') return 'british';
  return tag ?? 'international';
}

export function mealTypesOf(tags: readonly string[]): RecipeSeed['meal_types'] {
  const out = new Set<RecipeSeed['meal_types'][number]>();
  for (const tag of tags) {
    if (/breakfast|brunch/.test(tag)) out.add('breakfast');
    if (/lunch/.test(tag)) out.add('lunch');
    if (/dinner|supper|main/.test(tag)) out.add('dinner');
    if (/dessert|snack|sweet|cookie|cake|drink|appetizer|side/.test(tag)) out.add('snack');
  }
  return out.size > 0 ? [...out] : ['lunch', 'dinner'];
}

export function difficultyOf(totalMinutes: number, ingredientCount: number): RecipeSeed['difficulty'] {
  if (totalMinutes <= 30 && ingredientCount <= 8) return 'easy';
  if (totalMinutes > 120 || ingredientCount > 15) return 'hard';
  return 'medium';
}

export function nominalAmount(parsed: ParsedIngredientLine): { quantity: number; unit: string } {
  const info = parsed.ingredient!;
  if (info.category === 'spices & condiments') return { quantity: 1, unit: 'pinch' };
  if (info.defaultUnit === 'piece' && info.pieceGrams) return { quantity: 1, unit: 'piece' };
  return { quantity: 10, unit: info.defaultUnit === 'ml' ? 'ml' : 'g' };
}

/** Whether an unmatched line reads like food that carries an allergen or a diet fact. */
function mayCarryAllergens(parsed: ParsedIngredientLine): boolean {
  const facts = classifyFood('', `${parsed.name} ${parsed.notes}`);
  return facts.allergens.length > 0 || facts.diet.length > 0;
}

export async function buildRecipe(
  source: SourceRecipe,
  file: string,
  deps: ImportDeps,
): Promise<{ report: RecipeReport; seed: RecipeSeed | undefined }> {
  const report: RecipeReport = {
    file,
    slug: source.slug,
    title: source.title,
    linesWithQuantity: 0,
    matchedWithQuantity: 0,
    lines: source.ingredientLines.length,
    matched: 0,
    unmatched: [],
    status: 'parsed',
    language: recogniseLanguage([source.title, ...source.ingredientLines, ...source.steps]),
  };
  const ingredients: RecipeSeed['ingredients'] = [];
  const risky: string[] = [];
  for (const raw of source.ingredientLines) {
    if (/:\s*$/.test(raw)) continue; // a group label inside the list ("- Stuffing:")
    const parsed = await deps.parseLine(raw);
    const hasQuantity = parsed.quantity !== undefined && parsed.quantity > 0;
    if (hasQuantity) report.linesWithQuantity += 1;
    if (parsed.ingredient) {
      report.matched += 1;
      if (hasQuantity) report.matchedWithQuantity += 1;
      const amount = hasQuantity
        ? { quantity: parsed.quantity!, unit: parsed.unit ?? 'piece' }
        : nominalAmount(parsed);
      ingredients.push({ name: parsed.ingredient.name, ...amount });
    } else if (hasQuantity || parsed.name) {
      report.unmatched.push(raw.trim());
      if (mayCarryAllergens(parsed)) risky.push(raw.trim());
    }
  }
  const skip = (reason: string) => {
    report.status = 'skipped';
    report.reason = reason;
    return { report, seed: undefined };
  };
  if (!source.slug) return skip('no name to derive a slug from');
  if (ingredients.length === 0) return skip('no ingredient line matched');
  if (source.steps.length === 0) return skip('no directions');
  if (risky.length > 0) return skip(`unmatched lines may carry allergens: ${risky.join(' | ')}`);
  const prep = source.prepTime ?? 15;
  const cook = source.cookTime ?? 30;
  const seed: RecipeSeed = {
    slug: source.slug,
    title: source.title.slice(0, 200),
    description: (source.description || source.title).slice(0, 2000),
    cuisine: cuisineOf(source),
    meal_types: mealTypesOf(source.tags),
    difficulty: difficultyOf(prep + cook, ingredients.length),
    prep_time: Math.min(prep, 24 * 60),
    cook_time: Math.min(cook, 7 * 24 * 60),
    servings: Math.min(Math.max(source.servings ?? 4, 1), 100),
    ingredients,
    steps: source.steps,
  };
  return { report, seed };
}

/** Reads, parses and (unless a dry run) writes every recipe under `target`. */
export async function importRecipes(target: string, deps: ImportDeps): Promise<ImportReport> {
  const report: ImportReport = {
    pages: [],
    recipes: [],
    languages: new Map(),
    fileErrors: [],
    linesWithQuantity: 0,
    matchedWithQuantity: 0,
    imported: 0,
    skipped: 0,
    failed: 0,
  };
  const seenSlugs = new Set<string>();
  for (const file of recipeFiles(target)) {
    let sources: SourceRecipe[];
    try {
      sources = readRecipeFile(file);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      report.fileErrors.push({ file, error: message });
      report.pages.push({ file, status: 'error', error: message });
      continue;
    }
    report.pages.push(pageReport(file, sources));
    for (const source of sources) {
      // Two files may yield one slug ("Pancakes" twice): the later one gets a suffix.
      let slug = source.slug;
      for (let n = 2; seenSlugs.has(slug); n += 1) slug = `${slugify(source.slug)}-${n}`;
      seenSlugs.add(slug);
      const { report: recipe, seed } = await buildRecipe({ ...source, slug }, file, deps);
      report.linesWithQuantity += recipe.linesWithQuantity;
      report.matchedWithQuantity += recipe.matchedWithQuantity;
      const lang = report.languages.get(recipe.language) ?? { linesWithQuantity: 0, matchedWithQuantity: 0 };
      lang.linesWithQuantity += recipe.linesWithQuantity;
      lang.matchedWithQuantity += recipe.matchedWithQuantity;
      report.languages.set(recipe.language, lang);
      if (seed && deps.upsert) {
        try {
          await deps.upsert(seed);
          recipe.status = 'imported';
        } catch (error) {
          recipe.status = 'failed';
          recipe.reason = error instanceof Error ? error.message : String(error);
        }
      }
      if (recipe.status === 'imported') report.imported += 1;
      if (recipe.status === 'skipped') report.skipped += 1;
      if (recipe.status === 'failed') report.failed += 1;
      report.recipes.push(recipe);
    }
  }
  return report;
}

function pageReport(file: string, sources: readonly SourceRecipe[]): PageReport {
  if (sources.length === 0) return { file, status: 'no-structured-data' };
  const complete = sources.some((s) => s.ingredientLines.length > 0 && s.steps.length > 0);
  return { file, status: complete ? 'read' : 'empty', form: sources[0]!.form };
}

export const matchRate = (matched: number, total: number): string =>
  total === 0 ? 'n/a' : `${((100 * matched) / total).toFixed(1)}%`;
