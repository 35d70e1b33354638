import { invalidField, notFound } from '../../platform/errors.ts';
import { isUuid } from '../../platform/http/ids.ts';
import type { IngredientCatalog, IngredientInfo } from '../ingredients/contract.ts';
import type { RecipeCatalog, Viewer } from '../recipes/contract.ts';
import type { DeductionLine, DeductionResult, PantryAccess, PantryStockItem } from './contract.ts';
import { addDays, utcDate } from './dates.ts';
import { batchedReads } from '../../platform/db/batched-reads.ts';
import { ListingCache } from './listing-cache.ts';
import { planDeduction, type DeductionPlan } from './deduction.ts';
import { measurableUnit, roundQuantity } from './measure.ts';
import type { InventoryChanges, PantryRepository } from './repository.ts';
import type { InventoryRow, Location } from './tables.ts';

/** Expiry today or within the next 3 days counts as soon; already expired stock too. */
export const EXPIRING_SOON_DAYS = 3;

export interface PantryItem extends PantryStockItem {
  addedAt: Date;
}

export interface NewPantryItem {
  ingredientId: number;
  quantity: number;
  unit: string;
  location: Location;
  expiryDate: string | null;
}

export interface PantryItemChanges {
  quantity?: number | undefined;
  unit?: string | undefined;
  location?: Location | undefined;
  expiryDate?: string | null | undefined;
}

export interface PantryListing {
  items: PantryItem[];
  /** How many items of the whole filtered listing expire soon (not only of this page). */
  expiringCount: number;
  /** Items in the whole filtered listing. */
  total: number;
}

export class PantryService implements PantryAccess {
  readonly #repo: PantryRepository;
  readonly #ingredients: IngredientCatalog;
  readonly #recipes: RecipeCatalog;
  readonly #now: () => Date;
  readonly #listings = new ListingCache();
  /** The pantry versions of the listings that arrive together, read in one query. */
  readonly #version = batchedReads((userIds: readonly string[]) => this.#repo.versions(userIds));

  constructor(
    repo: PantryRepository,
    ingredients: IngredientCatalog,
    recipes: RecipeCatalog,
    now: () => Date = () => new Date(),
  ) {
    this.#repo = repo;
    this.#ingredients = ingredients;
    this.#recipes = recipes;
    this.#now = now;
  }

  /** The last date that still counts as "expiring soon" (UTC). */
  expiringCutoff(): string {
    return addDays(utcDate(this.#now()), EXPIRING_SOON_DAYS);
  }

  async list(userId: string): Promise<PantryStockItem[]> {
    // Every item, without the listing's counts: one statement.
    return this.#toItems(await this.#repo.list(userId), this.expiringCutoff());
  }

  async listItems(
    userId: string,
    filter: { location?: Location | undefined; expiringSoon?: boolean | undefined } = {},
    page: { limit?: number | undefined; offset?: number | undefined } = {},
  ): Promise<PantryListing> {
    const cutoff = this.expiringCutoff();
    const rowFilter = {
      location: filter.location,
      expiringBy: filter.expiringSoon === true ? cutoff : undefined,
      // expiring_soon=false lists what does NOT expire soon (undated stock included).
      notExpiringBy: filter.expiringSoon === false ? cutoff : undefined,
    };
    const rowPage = { limit: page.limit, offset: page.offset ?? 0 };
    // The version is read first: a page read after it is at least as new as that version.
    const version = (await this.#version(userId)) ?? '0';
    const key = JSON.stringify([userId, version, cutoff, rowFilter, rowPage]);
    let found = this.#listings.get(key);
    if (!found) {
      found = await this.#repo.listPage(userId, rowFilter, cutoff, rowPage);
      this.#listings.set(key, found);
    }
    const items = await this.#toItems(found.rows, cutoff);
    return { items, expiringCount: found.expiring, total: found.total };
  }

  async get(userId: string, id: string): Promise<PantryItem> {
    const row = isUuid(id) ? await this.#repo.find(userId, id) : undefined;
    if (!row) throw notFound('Inventory item');
    return this.#toItem(row);
  }

  async add(userId: string, input: NewPantryItem): Promise<PantryItem> {
    const ingredient = await this.#ingredient(input.ingredientId);
    const row = await this.#repo.insert({
      userId,
      ingredientId: ingredient.id,
      quantity: roundQuantity(input.quantity),
      unit: measurableUnit(input.unit, ingredient),
      location: input.location,
      expiryDate: input.expiryDate,
    });
    return this.#toItem(row, ingredient);
  }

  async update(userId: string, id: string, changes: PantryItemChanges): Promise<PantryItem> {
    const current = isUuid(id) ? await this.#repo.find(userId, id) : undefined;
    if (!current) throw notFound('Inventory item');
    const ingredient = await this.#ingredient(current.ingredient_id);
    const values: InventoryChanges = {
      quantity: changes.quantity === undefined ? undefined : roundQuantity(changes.quantity),
      unit: changes.unit === undefined ? undefined : measurableUnit(changes.unit, ingredient),
      location: changes.location,
      expiry_date: changes.expiryDate,
    };
    const row = await this.#repo.update(userId, id, values);
    if (!row) throw notFound('Inventory item');
    return this.#toItem(row, ingredient);
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.#repo.delete(userId, id))) throw notFound('Inventory item');
  }

  /**
   * Takes the lines from the user's stock in one transaction. The stock rows are locked (SELECT …
   * FOR UPDATE) before they are read, so a concurrent deduction waits and then sees what this one
   * left; on PGlite transactions run one at a time anyway.
   */
  async deduct(userId: string, lines: readonly DeductionLine[]): Promise<DeductionResult> {
    const ids = [...new Set(lines.map((l) => l.ingredientId))];
    const ingredients = await this.#ingredients.getMany(ids);
    const outcome = await this.#repo.transaction(async (repo) => {
      const rows = await repo.lockStock(userId, ids);
      const plan = planDeduction(
        rows.map((r) => ({ id: r.id, ingredientId: r.ingredient_id, quantity: r.quantity, unit: r.unit })),
        lines,
        ingredients,
      );
      for (const [id, quantity] of plan.reduced) await repo.setQuantity(id, quantity);
      await repo.deleteMany(plan.emptied);
      const emptied = new Set(plan.emptied);
      return { plan, emptiedRows: rows.filter((r) => emptied.has(r.id)) };
    });
    const names = outcome.emptiedRows.map((r) => nameOf(ingredients.get(r.ingredient_id), r.ingredient_id));
    const amount = (l: DeductionPlan['lines'][number], quantity: number) => ({
      ingredientId: l.ingredientId,
      name: nameOf(ingredients.get(l.ingredientId), l.ingredientId),
      quantity,
      unit: l.unit,
    });
    return {
      updatedItems: outcome.plan.reduced.size + outcome.plan.emptied.length,
      depletedItems: [...new Set(names)],
      deductedIngredients: outcome.plan.deductedLines,
      deducted: outcome.plan.lines.filter((l) => l.taken > 0).map((l) => amount(l, l.taken)),
      missing: outcome.plan.lines.filter((l) => l.missing > 0).map((l) => amount(l, l.missing)),
    };
  }

  /**
   * POST /api/inventory/sync: deducts a visible recipe scaled from its servings to `servings`
   * (default: the recipe's own).
   */
  async deductRecipe(viewer: Viewer, recipeId: string, servings?: number): Promise<DeductionResult> {
    const recipe = isUuid(recipeId) ? await this.#recipes.getVisible(recipeId, viewer) : undefined;
    if (!recipe) throw notFound('Recipe');
    const factor = (servings ?? recipe.servings) / recipe.servings;
    return this.deduct(
      viewer.id,
      recipe.ingredients.map((l) => ({
        ingredientId: l.ingredientId,
        quantity: l.quantity * factor,
        unit: l.unit,
      })),
    );
  }

  async #ingredient(id: number): Promise<IngredientInfo> {
    const ingredient = await this.#ingredients.get(id);
    if (!ingredient) throw invalidField('ingredient_id', `no ingredient has id ${id}`);
    return ingredient;
  }

  async #toItems(rows: readonly InventoryRow[], cutoff: string): Promise<PantryItem[]> {
    const ingredients = await this.#ingredients.getMany([...new Set(rows.map((r) => r.ingredient_id))]);
    return rows.map((r) => toItem(r, ingredients.get(r.ingredient_id), cutoff));
  }

  async #toItem(row: InventoryRow, ingredient?: IngredientInfo): Promise<PantryItem> {
    const known = ingredient ?? (await this.#ingredients.get(row.ingredient_id));
    return toItem(row, known, this.expiringCutoff());
  }
}

const isExpiringSoon = (expiry: string | null, cutoff: string): boolean =>
  expiry !== null && expiry <= cutoff;

const nameOf = (ingredient: IngredientInfo | undefined, id: number): string =>
  ingredient?.name ?? `ingredient ${id}`;

function toItem(row: InventoryRow, ingredient: IngredientInfo | undefined, cutoff: string): PantryItem {
  return {
    id: row.id,
    ingredientId: row.ingredient_id,
    name: nameOf(ingredient, row.ingredient_id),
    quantity: row.quantity,
    unit: row.unit,
    location: row.location,
    expiryDate: row.expiry_date,
    isExpiringSoon: isExpiringSoon(row.expiry_date, cutoff),
    addedAt: row.added_at,
  };
}
