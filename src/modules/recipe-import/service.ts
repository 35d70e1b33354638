import { AppError, validationError } from '../../platform/errors.ts';
import type { FetchedPage } from '../../platform/net/public-fetch.ts';
import type { IngredientsService } from '../ingredients/service.ts';
import type { Viewer } from '../recipes/contract.ts';
import type { RecipeDetail, RecipeInput, RecipesService } from '../recipes/service.ts';
import { cuisineOf, difficultyOf, mealTypesOf, nominalAmount } from './importer.ts';
import { recogniseLanguage } from './language.ts';
import { parseHtmlRecipes, parseJsonLdRecipes, slugify, type SourceRecipe } from './sources.ts';

/**
 * POST /api/recipes/import: a web page (fetched by URL, or sent as HTML) becomes the caller's
 * private recipe. Lines naming a reference ingredient become the recipe's ingredients; the others
 * are answered as `unmatched` for the user to correct (the recipe's allergens and nutrition count
 * only what matched, which is why the client is told).
 */
export interface ImportedRecipe {
  recipe: RecipeDetail;
  unmatched: string[];
  source: { url: string | null; imageUrl: string | null; language: string; form: string };
}

export type PageFetcher = (url: string) => Promise<FetchedPage>;

const noRecipe = () =>
  new AppError(422, 'no_structured_recipe', 'No recipe found', 'No structured recipe on this page.');

const MAX_STEPS = 100;
const MAX_LINES = 100;

export class RecipeImportService {
  readonly #recipes: RecipesService;
  readonly #ingredients: IngredientsService;
  readonly #fetchPage: PageFetcher;

  constructor(deps: { recipes: RecipesService; ingredients: IngredientsService; fetchPage: PageFetcher }) {
    this.#recipes = deps.recipes;
    this.#ingredients = deps.ingredients;
    this.#fetchPage = deps.fetchPage;
  }

  async importForUser(
    owner: Viewer,
    input: { url?: string | undefined; html?: string | undefined },
  ): Promise<ImportedRecipe> {
    if (!input.url === !input.html)
      throw validationError('Send either url or html.', [{ field: 'url', message: 'either url or html' }]);
    const page = input.url
      ? await this.#fetchPage(input.url)
      : { url: null, contentType: 'text/html', body: input.html! };
    const source = pickRecipe(readPage(page.body, page.contentType, page.url));
    if (!source) throw noRecipe();
    const { lines, unmatched } = await this.#ingredientLines(source);
    if (lines.length === 0)
      throw new AppError(
        422,
        'no_structured_recipe',
        'No ingredient recognised',
        'None of the recipe’s ingredient lines names a known ingredient.',
        {
          extra: { unmatched },
        },
      );
    const recipe = await this.#recipes.create(owner, toInput(source, lines));
    return {
      recipe,
      unmatched,
      source: {
        url: page.url,
        imageUrl: source.imageUrl ?? null,
        language: recogniseLanguage([source.title, ...source.ingredientLines, ...source.steps]),
        form: source.form ?? 'json-ld',
      },
    };
  }

  async #ingredientLines(
    source: SourceRecipe,
  ): Promise<{ lines: RecipeInput['ingredients']; unmatched: string[] }> {
    const lines: RecipeInput['ingredients'] = [];
    const unmatched: string[] = [];
    for (const raw of source.ingredientLines.slice(0, MAX_LINES * 2)) {
      if (/:\s*$/.test(raw)) continue; // a group label ("For the sauce:")
      const parsed = await this.#ingredients.parseLine(raw);
      if (!parsed.ingredient) {
        if (parsed.quantity !== undefined || parsed.name) unmatched.push(raw.trim().slice(0, 500));
        continue;
      }
      const amount =
        parsed.quantity !== undefined && parsed.quantity > 0 && parsed.unit
          ? { quantity: Math.min(parsed.quantity, 1_000_000), unit: parsed.unit }
          : nominalAmount(parsed);
      if (lines.length < MAX_LINES) lines.push({ ingredient_id: parsed.ingredient.id, ...amount });
    }
    return { lines, unmatched };
  }
}

function readPage(body: string, contentType: string, url: string | null): SourceRecipe[] {
  const slug = url ? slugify(new URL(url).pathname) || 'recipe' : 'recipe';
  if (contentType.includes('json')) {
    try {
      return parseJsonLdRecipes(body, slug);
    } catch {
      return [];
    }
  }
  return parseHtmlRecipes(body, slug);
}

/** The page's recipe: the first with ingredient lines and steps (a page may carry a stub too). */
function pickRecipe(recipes: readonly SourceRecipe[]): SourceRecipe | undefined {
  return recipes.find((r) => r.ingredientLines.length > 0 && r.steps.length > 0);
}

function toInput(source: SourceRecipe, lines: RecipeInput['ingredients']): RecipeInput {
  const prep = Math.min(source.prepTime ?? 15, 24 * 60);
  const cook = Math.min(source.cookTime ?? 30, 7 * 24 * 60);
  return {
    title: source.title.slice(0, 200) || 'Imported recipe',
    description: source.description.slice(0, 4000),
    cuisine: cuisineOf(source),
    difficulty: difficultyOf(prep + cook, lines.length),
    prep_time: prep,
    cook_time: cook,
    servings: Math.min(Math.max(source.servings ?? 4, 1), 100),
    ingredients: lines,
    steps: source.steps
      .slice(0, MAX_STEPS)
      .map((instruction, i) => ({ step_number: i + 1, instruction: instruction.slice(0, 4000) })),
    is_public: false,
    meal_types: mealTypesOf(source.tags),
  };
}
