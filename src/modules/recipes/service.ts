import { createHash } from 'node:crypto';
import { forbidden, invalidField, notFound } from '../../platform/errors.ts';
import { IMMEDIATE, type TransactionScope } from '../../platform/db/unit-of-work.ts';
import { isUuid } from '../../platform/http/ids.ts';
import type { IngredientCatalog, IngredientInfo } from '../ingredients/contract.ts';
import type { DeductedAmount, PantryAccess } from '../pantry/contract.ts';
import type { PreferencesService } from '../preferences/service.ts';
import { loadCatalogSeeds, prepareSeeds, type SeedOutcome } from './catalog.ts';
import { recipeValues, resolveUnit, type ResolvedLine } from './composition.ts';
import type {
  CandidatePoolRequest,
  Difficulty,
  MealType,
  RecipeCandidateFilter,
  RecipeCatalog,
  RecipeForUse,
  RecipeSearchQuery,
  RecipeSummary,
  Viewer,
} from './contract.ts';
import {
  tsQueryText,
  type IngredientLineValues,
  type PoolDraw,
  type RecipeFilter,
  type RecipeValues,
  type RecipesRepository,
  type StoredRecipe,
  type SummaryRow,
} from './repository.ts';
import { RecipeSearchFeed, type SearchFeedOptions, type SearchSource } from './search-feed.ts';
import type { SearchHit } from './search-index.ts';
import type { RecipeSeed } from './seed/types.ts';
import type { RecipeIngredientRow } from './tables.ts';

function candidateFilter(filter: RecipeCandidateFilter): RecipeFilter {
  return {
    mealType: filter.mealType,
    maxTime: filter.maxTotalTime,
    cuisines: filter.cuisines?.map((c) => c.trim().toLowerCase()),
    fitsAll: filter.fits,
    withoutAllergens: filter.withoutAllergens,
  };
}

function poolDraws(viewer: Viewer, mealType: MealType, pool: CandidatePoolRequest): PoolDraw[] {
  const size = pool.perSource;
  const draws: PoolDraw[] = [
    { mealType, size: pool.perMealType },
    { mealType, size, ownerId: viewer.id },
  ];
  if (pool.favourCuisines?.length) draws.push({ mealType, size, cuisines: pool.favourCuisines });
  if (pool.usingIngredients?.length) draws.push({ mealType, size, ingredientIds: pool.usingIngredients });
  return draws.filter((d) => d.size > 0);
}

/** Recipe ids are random UUIDs: a hashed seed read as one is an evenly spread starting point. */
function rotationPivot(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** A recipe as a user writes it (POST/PUT body). */
export interface RecipeInput {
  title: string;
  description: string;
  cuisine: string;
  difficulty: Difficulty;
  prep_time: number;
  cook_time: number;
  servings: number;
  ingredients: { ingredient_id: number; quantity: number; unit: string }[];
  steps: { step_number: number; instruction: string }[];
  is_public?: boolean | undefined;
  meal_types?: MealType[] | undefined;
}

/** The detail view: a usable recipe plus what the viewer and other users made of it. */
export interface RecipeDetail extends RecipeForUse {
  images: string[];
  isFavourite: boolean;
  ratingAvg: number;
  ratingCount: number;
}

export interface RatingOutcome {
  recipeId: string;
  ratingAvg: number;
  ratingCount: number;
  yourRating: number;
}

export interface CookOutcome {
  cookedAt: Date;
  inventoryUpdated: boolean;
  ingredientsDeducted: number;
  /** What the pantry gave and what it lacked, per recipe line (in the line's unit). */
  deducted: DeductedAmount[];
  missing: DeductedAmount[];
}

export interface HistoryItem {
  recipeId: string | null;
  title: string;
  cookedAt: Date;
  servings: number;
}

/** Meal types a user's recipe gets when the body does not say. */
const DEFAULT_MEAL_TYPES: MealType[] = ['lunch', 'dinner'];

/**
 * Recipes: the catalog (seeded, no owner, admins edit it) and users' own recipes (private unless
 * public), search, favourites, ratings and cooking. Nutrition, allergens and dietary fit are
 * derived from the ingredient lines on every write (composition.ts).
 */
export class RecipesService implements RecipeCatalog {
  readonly #repo: RecipesRepository;
  readonly #ingredients: IngredientCatalog;
  readonly #preferences: PreferencesService;
  readonly #pantry: () => PantryAccess;
  readonly #now: () => Date;
  readonly #searchIndex: RecipeSearchFeed;
  readonly #uow: TransactionScope;

  constructor(deps: {
    repo: RecipesRepository;
    ingredients: IngredientCatalog;
    preferences: PreferencesService;
    /** A getter: the pantry module is built after this one. */
    pantry: () => PantryAccess;
    now?: () => Date;
    searchIndex?: SearchFeedOptions;
    /**
     * Where the search index reads the change log: a repository on the root database, never inside
     * a request's transaction (it must see committed rows only). Defaults to `repo`.
     */
    searchSource?: SearchSource;
    /** Cross-module transactions; the default runs steps as they come (unit tests). */
    uow?: TransactionScope;
  }) {
    this.#repo = deps.repo;
    this.#ingredients = deps.ingredients;
    this.#preferences = deps.preferences;
    this.#pantry = deps.pantry;
    this.#now = deps.now ?? (() => new Date());
    this.#searchIndex = new RecipeSearchFeed(deps.searchSource ?? deps.repo, deps.searchIndex);
    this.#uow = deps.uow ?? IMMEDIATE;
  }

  // ---- RecipeCatalog ---------------------------------------------------------------------------

  getVisible(recipeId: string, viewer: Viewer | undefined): Promise<RecipeDetail | undefined> {
    return this.#findDetail(recipeId, viewer);
  }

  async getManyVisible(
    recipeIds: readonly string[],
    viewer: Viewer | undefined,
  ): Promise<Map<string, RecipeForUse>> {
    const ids = [...new Set(recipeIds.filter(isUuid))];
    const rows = await this.#repo.findManyVisible(ids, viewer);
    return this.#assemble(rows, await this.#repo.linesOf(rows.map((r) => r.id)));
  }

  /**
   * Candidates for planners: catalog, public and the viewer's own recipes. Admins get the same
   * set as anyone (not other users' private recipes): a plan is something the admin will cook.
   */
  async listCandidates(viewer: Viewer, filter: RecipeCandidateFilter): Promise<RecipeForUse[]> {
    const { recipes, lines } = await this.#repo.candidates(viewer, candidateFilter(filter));
    return [...(await this.#assemble(recipes, lines)).values()];
  }

  /**
   * listCandidates, bounded: per meal type one draw over everything that passes the filter plus
   * smaller draws of the viewer's own recipes, the liked cuisines and recipes using the given
   * ingredients, so that a large catalog's random share does not crowd those out.
   */
  async listCandidatePool(
    viewer: Viewer,
    filter: RecipeCandidateFilter,
    pool: CandidatePoolRequest,
  ): Promise<RecipeForUse[]> {
    const { recipes, lines } = await this.#repo.candidatePool(
      viewer,
      candidateFilter(filter),
      pool.mealTypes.flatMap((mealType) => poolDraws(viewer, mealType, pool)),
      rotationPivot(pool.seed),
    );
    return [...(await this.#assemble(recipes, lines)).values()];
  }

  /**
   * From the in-memory search index (search-index.ts): which recipes, in which order, how many,
   * and what each result shows; the database is read for the caller's favourites only when they
   * are not held (search-feed.ts).
   */
  async search(
    query: RecipeSearchQuery,
    viewer: Viewer | undefined,
  ): Promise<{ items: RecipeSummary[]; total: number }> {
    const { hits, total } = await this.#searchIndex.search(
      {
        tsQuery: query.q === undefined ? undefined : tsQueryText(query.q),
        cuisine: query.cuisine?.trim().toLowerCase() || undefined,
        difficulty: query.difficulty,
        maxTime: query.maxTime,
        dietary: query.dietary,
        mealType: query.mealType,
      },
      viewer,
      { limit: query.limit, offset: query.offset },
    );
    const favourites = viewer
      ? await this.#searchIndex.favouritesAmong(
          viewer.id,
          hits.map((h) => h.id),
        )
      : new Set<string>();
    return { items: hits.map((hit) => summaryOfHit(hit, favourites.has(hit.id))), total };
  }

  /** The index reads the change log once the write is committed (the caller's unit may be open). */
  #syncSearch(): Promise<void> {
    return this.#uow.afterCommit(() => this.#searchIndex.sync());
  }

  /** Where searches are answered now, and how many shared recipes the in-memory index holds. */
  searchIndexState(): { mode: 'loading' | 'memory' | 'database'; recipes: number } {
    return { mode: this.#searchIndex.mode, recipes: this.#searchIndex.indexedRecipes };
  }

  /** Stops the search index's background reads (the service is closing). */
  close(): void {
    this.#searchIndex.close();
  }

  catalogWithoutImages(): Promise<{ id: string; title: string; description: string }[]> {
    return this.#repo.catalogWithoutImages();
  }

  async attachImage(recipeId: string, url: string, kind: 'hero' | 'step', actor: Viewer): Promise<boolean> {
    if (!isUuid(recipeId)) return false;
    const row = await this.#repo.findVisible(recipeId, actor);
    if (!row || !(actor.isAdmin || row.owner_id === actor.id)) return false;
    const added = await this.#repo.addImage(recipeId, url, kind);
    await this.#syncSearch();
    return added;
  }

  // ---- detail and writes -----------------------------------------------------------------------

  /** GET /api/recipes/:id: one query (the row, is_favourite and the lines). */
  async getDetail(recipeId: string, viewer: Viewer | undefined): Promise<RecipeDetail> {
    const detail = await this.#findDetail(recipeId, viewer);
    if (!detail) throw notFound('Recipe');
    return detail;
  }

  async #findDetail(recipeId: string, viewer: Viewer | undefined): Promise<RecipeDetail | undefined> {
    const row = isUuid(recipeId) ? await this.#repo.findDetail(recipeId, viewer) : undefined;
    if (!row) return undefined;
    const recipe = (await this.#assemble([row], row.lines)).get(row.id)!;
    return {
      ...recipe,
      images: row.images,
      isFavourite: row.is_favourite,
      ratingAvg: ratingAvg(row.rating_sum, row.rating_count),
      ratingCount: row.rating_count,
    };
  }

  async create(owner: Viewer, input: RecipeInput): Promise<RecipeDetail> {
    const { values, lines } = await this.#prepare(input, {
      isPublic: input.is_public ?? false,
      mealTypes: input.meal_types ?? DEFAULT_MEAL_TYPES,
    });
    const id = await this.#repo.transaction((repo) => repo.insert(owner.id, values, lines));
    await this.#syncSearch();
    return this.getDetail(id, owner);
  }

  /** Full replacement; `is_public` and `meal_types` keep their values when the body omits them. */
  async update(recipeId: string, actor: Viewer, input: RecipeInput): Promise<RecipeDetail> {
    const current = await this.#editable(recipeId, actor);
    const { values, lines } = await this.#prepare(input, {
      isPublic: input.is_public ?? current.is_public,
      mealTypes: input.meal_types ?? (current.meal_types as MealType[]),
    });
    await this.#repo.transaction((repo) => repo.update(current.id, values, lines));
    await this.#syncSearch();
    return this.getDetail(current.id, actor);
  }

  async remove(recipeId: string, actor: Viewer): Promise<void> {
    const current = await this.#editable(recipeId, actor);
    await this.#repo.transaction((repo) => repo.delete(current.id));
    await this.#syncSearch();
  }

  /**
   * Only the owner or an admin may change a recipe. One the actor cannot see is a 404 (its
   * existence stays secret); one they can see but do not own (catalog, another user's public
   * recipe) is a 403.
   */
  async #editable(recipeId: string, actor: Viewer): Promise<StoredRecipe> {
    const row = isUuid(recipeId) ? await this.#repo.findVisible(recipeId, actor) : undefined;
    if (!row) throw notFound('Recipe');
    if (actor.isAdmin || row.owner_id === actor.id) return row;
    throw forbidden(
      row.owner_id === null
        ? 'Only administrators may edit catalog recipes.'
        : 'Only the owner may change this recipe.',
    );
  }

  async #prepare(
    input: RecipeInput,
    flags: { isPublic: boolean; mealTypes: MealType[] },
  ): Promise<{ values: RecipeValues; lines: IngredientLineValues[] }> {
    const infos = await this.#ingredients.getMany(input.ingredients.map((l) => l.ingredient_id));
    const resolved: ResolvedLine[] = input.ingredients.map((line, index) => {
      const info = infos.get(line.ingredient_id);
      if (!info) {
        throw invalidField(`ingredients.${index}.ingredient_id`, `unknown ingredient ${line.ingredient_id}`);
      }
      const unit = resolveUnit(line.unit, info);
      if (!unit)
        throw invalidField(`ingredients.${index}.unit`, `unknown unit "${line.unit}" for ${info.name}`);
      return { info, quantity: line.quantity, unit };
    });
    const steps = [...input.steps].sort((a, b) => a.step_number - b.step_number);
    return {
      values: recipeValues(
        {
          title: input.title,
          description: input.description,
          cuisine: input.cuisine,
          difficulty: input.difficulty,
          prepTime: input.prep_time,
          cookTime: input.cook_time,
          servings: input.servings,
          steps: steps.map((s) => s.instruction),
          ...flags,
        },
        resolved,
      ),
      lines: resolved.map((l) => ({ ingredient_id: l.info.id, quantity: l.quantity, unit: l.unit })),
    };
  }

  // ---- favourites, ratings, cooking, history ---------------------------------------------------

  async setFavourite(recipeId: string, user: Viewer, on: boolean): Promise<boolean> {
    const row = isUuid(recipeId) ? await this.#repo.findVisible(recipeId, user) : undefined;
    if (!row) throw notFound('Recipe');
    const done = await this.#repo.setFavourite(user.id, row.id, on);
    // Once committed and before answering, so that the caller's next search here shows it.
    await this.#uow.afterCommit(() => this.#searchIndex.forgetFavourites(user.id));
    if (!done) throw notFound('Recipe');
    return on;
  }

  async listFavourites(
    user: Viewer,
    page: { limit: number; offset: number },
  ): Promise<{ items: RecipeSummary[]; total: number }> {
    const { rows, total } = await this.#repo.favourites(user, page);
    return { items: rows.map(toSummary), total };
  }

  /** One rating per user and recipe (rating again replaces it); teaches the user's preferences. */
  async rate(
    recipeId: string,
    user: Viewer,
    rating: number,
    notes: string | null | undefined,
  ): Promise<RatingOutcome> {
    const recipe = await this.getVisible(recipeId, user);
    if (!recipe) throw notFound('Recipe');
    // The rating and what it teaches commit together (a retry cannot learn one rating twice).
    const aggregate = await this.#uow.run(async () => {
      const stored = await this.#repo.rate(user.id, recipe.id, rating, notes ?? null);
      if (!stored) throw notFound('Recipe');
      // Re-sending the same rating teaches nothing new; a changed rating is learned once more.
      if (stored.previous !== rating)
        await this.#preferences.learnFromRating(user.id, rating, tasteOf(recipe));
      return stored;
    });
    await this.#syncSearch();
    return {
      recipeId: recipe.id,
      ratingAvg: ratingAvg(aggregate.rating_sum, aggregate.rating_count),
      ratingCount: aggregate.rating_count,
      yourRating: rating,
    };
  }

  /**
   * Cooking: deducts the ingredient lines scaled to the servings cooked from the pantry (the pantry
   * module converts units and skips what it cannot), then records the history entry and teaches
   * the user's preferences, all in one transaction.
   */
  async cook(recipeId: string, user: Viewer, servings: number | undefined): Promise<CookOutcome> {
    const recipe = await this.getVisible(recipeId, user);
    if (!recipe) throw notFound('Recipe');
    const cooked = servings ?? recipe.servings;
    const factor = cooked / recipe.servings;
    // One transaction: a failure after the deduction (history, preferences) leaves the pantry as it
    // was, so a retried request cannot deduct twice for one recorded cooking.
    return this.#uow.run(async () => {
      const result = await this.#pantry().deduct(
        user.id,
        recipe.ingredients.map((l) => ({
          ingredientId: l.ingredientId,
          quantity: l.quantity * factor,
          unit: l.unit,
        })),
      );
      const cookedAt = this.#now();
      await this.#repo.addHistory({
        userId: user.id,
        recipeId: recipe.id,
        title: recipe.title,
        servings: cooked,
        cookedAt,
      });
      await this.#preferences.learnFromCooking(user.id, tasteOf(recipe));
      return {
        cookedAt,
        inventoryUpdated: result.updatedItems > 0,
        ingredientsDeducted: result.deductedIngredients,
        deducted: result.deducted,
        missing: result.missing,
      };
    });
  }

  async listHistory(
    userId: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: HistoryItem[]; total: number }> {
    const { rows, total } = await this.#repo.history(userId, page);
    return {
      items: rows.map((r) => ({
        recipeId: r.recipe_id,
        title: r.title,
        cookedAt: r.cooked_at,
        servings: r.servings,
      })),
      total,
    };
  }

  // ---- catalog seeding -------------------------------------------------------------------------

  /**
   * Inserts or replaces one catalog recipe by slug (the import CLI's entry point). Ingredient
   * names resolve through the ingredient catalog; an unknown name or unit throws an error naming
   * every one of them.
   */
  async upsertCatalogRecipe(seed: RecipeSeed): Promise<string> {
    const [prepared] = await prepareSeeds([seed], this.#ingredients);
    const id = await this.#repo.transaction((repo) => repo.upsertCatalog(prepared!));
    await this.#syncSearch();
    return id;
  }

  /**
   * Loads every `seed/catalog-*.ts` file. Idempotent and cheap on later starts: a recipe whose
   * seed (and the reference data of its ingredients) is unchanged is skipped; a changed one is
   * rewritten unless an admin edited it since; one an admin deleted stays deleted.
   */
  async seedCatalog(): Promise<SeedOutcome> {
    return this.seedRecipes(await loadCatalogSeeds());
  }

  /** How many catalog recipes are stored. */
  async catalogSize(): Promise<number> {
    return (await this.#repo.catalogState()).existing.size;
  }

  /** seedCatalog over an explicit list (tests, importers). */
  async seedRecipes(seeds: readonly RecipeSeed[]): Promise<SeedOutcome> {
    const prepared = await prepareSeeds(seeds, this.#ingredients);
    const { existing, retired } = await this.#repo.catalogState();
    const fresh = prepared.filter((p) => !existing.has(p.slug) && !retired.has(p.slug));
    const changed = prepared.filter((p) => {
      const stored = existing.get(p.slug);
      return stored !== undefined && stored !== null && stored !== p.seed_hash;
    });
    await this.#repo.transaction(async (repo) => {
      await repo.insertCatalog(fresh);
      for (const recipe of changed) await repo.upsertCatalog(recipe);
    });
    if (fresh.length + changed.length > 0) await this.#syncSearch();
    return {
      inserted: fresh.length,
      updated: changed.length,
      unchanged: prepared.length - fresh.length - changed.length,
    };
  }

  // ---- assembling ------------------------------------------------------------------------------

  async #assemble(
    rows: readonly StoredRecipe[],
    lines: readonly RecipeIngredientRow[],
  ): Promise<Map<string, RecipeForUse>> {
    const infos = await this.#ingredients.getMany([...new Set(lines.map((l) => l.ingredient_id))]);
    const linesByRecipe = new Map<string, RecipeIngredientRow[]>();
    for (const line of lines) {
      const list = linesByRecipe.get(line.recipe_id) ?? [];
      list.push(line);
      linesByRecipe.set(line.recipe_id, list);
    }
    const out = new Map<string, RecipeForUse>();
    for (const row of rows) out.set(row.id, toRecipeForUse(row, linesByRecipe.get(row.id) ?? [], infos));
    return out;
  }
}

function toRecipeForUse(
  row: StoredRecipe,
  lines: readonly RecipeIngredientRow[],
  infos: Map<number, IngredientInfo>,
): RecipeForUse {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    cuisine: row.cuisine,
    difficulty: row.difficulty,
    prepTime: row.prep_time,
    cookTime: row.cook_time,
    servings: row.servings,
    mealTypes: row.meal_types as MealType[],
    ownerId: row.owner_id,
    isPublic: row.is_public,
    ingredients: lines.map((l) => ({
      ingredientId: l.ingredient_id,
      name: infos.get(l.ingredient_id)?.name ?? `ingredient ${l.ingredient_id}`,
      quantity: l.quantity,
      unit: l.unit,
    })),
    steps: row.steps,
    nutrition: {
      calories: round1(row.calories),
      protein: round1(row.protein),
      carbs: round1(row.carbs),
      fat: round1(row.fat),
      fiber: round1(row.fiber),
    },
    allergens: row.allergens,
    fits: row.fits,
    imageUrl: row.images[0] ?? null,
  };
}

function toSummary(row: SummaryRow): RecipeSummary {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    cuisine: row.cuisine,
    difficulty: row.difficulty,
    prepTime: row.prep_time,
    cookTime: row.cook_time,
    servings: row.servings,
    calories: Math.round(row.calories),
    isFavourite: row.is_favourite,
    ratingAvg: ratingAvg(row.rating_sum, row.rating_count),
    ratingCount: row.rating_count,
    imageUrl: row.image_url,
  };
}

function summaryOfHit(hit: SearchHit, isFavourite: boolean): RecipeSummary {
  return {
    id: hit.id,
    title: hit.title,
    description: hit.description,
    cuisine: hit.cuisine,
    difficulty: hit.difficulty as Difficulty,
    prepTime: hit.prepTime,
    cookTime: hit.cookTime,
    servings: hit.servings,
    calories: Math.round(hit.calories),
    isFavourite,
    ratingAvg: ratingAvg(hit.ratingSum, hit.ratingCount),
    ratingCount: hit.ratingCount,
    imageUrl: hit.imageUrl,
  };
}

/** Mean rating rounded to 2 decimals; 0 when nobody rated. */
export function ratingAvg(sum: number, count: number): number {
  return count > 0 ? Math.round((sum / count) * 100) / 100 : 0;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

function tasteOf(recipe: RecipeForUse) {
  return {
    cuisine: recipe.cuisine,
    difficulty: recipe.difficulty,
    ingredientNames: recipe.ingredients.map((l) => l.name),
  };
}
