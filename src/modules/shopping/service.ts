import { invalidField, notFound } from '../../platform/errors.ts';
import { isUuid } from '../../platform/http/ids.ts';
import type { IngredientCatalog, IngredientInfo } from '../ingredients/contract.ts';
import type { PantryAccess } from '../pantry/contract.ts';
import { convertFor, measurableUnit, roundQuantity } from '../pantry/measure.ts';
import { planGeneration, type GenerationWrites, type OpenRow } from './generation.ts';
import type { RecipeCatalog, Viewer } from '../recipes/contract.ts';
import { subtractStock, sumAmounts, type Amount } from './needs.ts';
import type { ShoppingRepository, ShoppingRowChanges } from './repository.ts';
import type { ShoppingRow } from './tables.ts';

export interface ShoppingItem {
  id: string;
  ingredientId: number;
  name: string;
  quantity: number;
  unit: string;
  isChecked: boolean;
  category: string;
  addedAt: Date;
}

/** An unchecked line of the list, as price comparison and optimisation need it. */
export interface ShoppingNeed {
  id: string;
  ingredientId: number;
  name: string;
  quantity: number;
  unit: string;
  category: string;
}

export interface ShoppingListing {
  items: ShoppingItem[];
  totalItems: number;
  checkedItems: number;
}

export interface GenerationResult {
  /** List rows created or increased. */
  addedItems: number;
  /** Ingredients of the plan the pantry fully covers. */
  skippedInPantry: number;
  /** The rows created or increased. */
  items: ShoppingItem[];
}

/** What generation reads of a meal plan (MealPlansService.getPlanDetail; 404 for others' plans). */
export interface MealPlanSource {
  getPlanDetail(
    userId: string,
    planId: string,
  ): Promise<{ slots: readonly { recipeId: string | null; servings: number }[] }>;
}

/**
 * The shopping list. Every write runs in a transaction holding the user's list lock
 * (ShoppingRepository.lockList), so merges, generation and edits of one list never interleave.
 */
export class ShoppingService {
  readonly #repo: ShoppingRepository;
  readonly #ingredients: IngredientCatalog;
  readonly #recipes: RecipeCatalog;
  readonly #pantry: PantryAccess;
  readonly #plans: MealPlanSource;

  constructor(
    repo: ShoppingRepository,
    ingredients: IngredientCatalog,
    recipes: RecipeCatalog,
    pantry: PantryAccess,
    plans: MealPlanSource,
  ) {
    this.#repo = repo;
    this.#ingredients = ingredients;
    this.#recipes = recipes;
    this.#pantry = pantry;
    this.#plans = plans;
  }

  async list(userId: string): Promise<ShoppingListing> {
    const items = await this.#toItems(await this.#repo.list(userId));
    return {
      items,
      totalItems: items.length,
      checkedItems: items.filter((i) => i.isChecked).length,
    };
  }

  /** The unchecked lines, for prices and optimisation. */
  async listUnchecked(userId: string): Promise<ShoppingNeed[]> {
    const items = await this.#toItems(await this.#repo.list(userId, { uncheckedOnly: true }));
    return items.map((i) => ({
      id: i.id,
      ingredientId: i.ingredientId,
      name: i.name,
      quantity: i.quantity,
      unit: i.unit,
      category: i.category,
    }));
  }

  /**
   * Adds to the list. An unchecked row of the same ingredient absorbs the quantity (converted into
   * its unit); when the units cannot be converted the item gets a row of its own.
   */
  async add(userId: string, input: Amount): Promise<ShoppingItem> {
    const ingredient = await this.#ingredient(input.ingredientId);
    const amount = {
      ingredientId: ingredient.id,
      quantity: roundQuantity(input.quantity),
      unit: measurableUnit(input.unit, ingredient),
    };
    const row = await this.#repo.transaction(async (repo) => {
      await repo.lockList(userId);
      const open = await repo.list(userId, { uncheckedOnly: true });
      return mergeInto(repo, userId, open, amount, ingredient);
    });
    return (await this.#toItems([row]))[0]!;
  }

  async update(
    userId: string,
    id: string,
    changes: { quantity?: number | undefined; unit?: string | undefined; isChecked?: boolean | undefined },
  ): Promise<ShoppingItem> {
    const row = await this.#repo.transaction(async (repo) => {
      if (!isUuid(id)) throw notFound('Shopping list item');
      await repo.lockList(userId);
      const current = await repo.find(userId, id);
      if (!current) throw notFound('Shopping list item');
      const values: ShoppingRowChanges = {
        quantity: changes.quantity === undefined ? undefined : roundQuantity(changes.quantity),
        is_checked: changes.isChecked,
      };
      if (changes.unit !== undefined) {
        const ingredient = await this.#ingredient(current.ingredient_id);
        values.unit = measurableUnit(changes.unit, ingredient);
        // A new unit alone restates the same amount (500 g → 0.5 kg), never relabels the number.
        if (values.quantity === undefined && values.unit !== current.unit) {
          const converted = convertFor(current.quantity, current.unit, values.unit, ingredient);
          if (converted === undefined)
            throw invalidField(
              'unit',
              `${current.unit} of ${ingredient.name} cannot be converted to ${values.unit}; send a quantity with the new unit`,
            );
          values.quantity = roundQuantity(converted);
        }
        await convertShares(repo, current, values.unit, ingredient);
      }
      return repo.update(userId, id, values);
    });
    if (!row) throw notFound('Shopping list item');
    return (await this.#toItems([row]))[0]!;
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!isUuid(id)) throw notFound('Shopping list item');
    const deleted = await this.#repo.transaction(async (repo) => {
      await repo.lockList(userId);
      return repo.delete(userId, id);
    });
    if (!deleted) throw notFound('Shopping list item');
  }

  /**
   * Puts what a meal plan needs on the list: every slot's recipe scaled to the slot's servings,
   * summed per ingredient, minus the pantry stock. Fully covered ingredients are only counted;
   * the rest is merged into the unchecked list. Regenerating from the same plan first takes that
   * plan's previous share back out of the unchecked rows (recorded per row and plan), so the list
   * holds each plan's current needs once; checked rows (already bought) are never touched.
   */
  async generateFromPlan(viewer: Viewer, planId: string): Promise<GenerationResult> {
    const plan = await this.#plans.getPlanDetail(viewer.id, planId);
    const recipeIds = [...new Set(plan.slots.flatMap((s) => (s.recipeId ? [s.recipeId] : [])))];
    // The pantry does not depend on the recipes: read both at once.
    const [recipes, stock] = await Promise.all([
      this.#recipes.getManyVisible(recipeIds, viewer),
      this.#pantry.list(viewer.id),
    ]);
    const amounts: Amount[] = plan.slots.flatMap((slot) => {
      const recipe = slot.recipeId ? recipes.get(slot.recipeId) : undefined;
      if (!recipe) return [];
      const factor = slot.servings / recipe.servings;
      return recipe.ingredients.map((l) => ({
        ingredientId: l.ingredientId,
        quantity: l.quantity * factor,
        unit: l.unit,
      }));
    });
    const ingredients = await this.#ingredients.getMany([...new Set(amounts.map((a) => a.ingredientId))]);
    const { toBuy, coveredIngredients } = subtractStock(sumAmounts(amounts, ingredients), stock, ingredients);

    const touched = await this.#repo.transaction(async (repo) => {
      await repo.lockList(viewer.id);
      const open = await repo.listOpenWithShare(viewer.id, planId);
      return applyGeneration(repo, viewer.id, planId, open, planGeneration(open, toBuy, ingredients, planId));
    });
    const items = sortItems(await this.#toItems(touched));
    return { addedItems: items.length, skippedInPantry: coveredIngredients.length, items };
  }

  async #ingredient(id: number): Promise<IngredientInfo> {
    const ingredient = await this.#ingredients.get(id);
    if (!ingredient) throw invalidField('ingredient_id', `no ingredient has id ${id}`);
    return ingredient;
  }

  async #toItems(rows: readonly ShoppingRow[]): Promise<ShoppingItem[]> {
    const ingredients = await this.#ingredients.getMany([...new Set(rows.map((r) => r.ingredient_id))]);
    return sortItems(
      rows.map((r) => {
        const ingredient = ingredients.get(r.ingredient_id);
        return {
          id: r.id,
          ingredientId: r.ingredient_id,
          name: ingredient?.name ?? `ingredient ${r.ingredient_id}`,
          quantity: r.quantity,
          unit: r.unit,
          isChecked: r.is_checked,
          category: ingredient?.category ?? 'other',
          addedAt: r.added_at,
        };
      }),
    );
  }
}

/** Unchecked first, grouped by category (aisle), then by name, then oldest first. */
function sortItems(items: ShoppingItem[]): ShoppingItem[] {
  return items.sort(
    (a, b) =>
      Number(a.isChecked) - Number(b.isChecked) ||
      a.category.localeCompare(b.category) ||
      a.name.localeCompare(b.name) ||
      a.addedAt.getTime() - b.addedAt.getTime(),
  );
}

/**
 * Adds `amount` to the first open row of its ingredient whose unit it converts into, or inserts a
 * row (a user's own addition: no plan share).
 */
async function mergeInto(
  repo: ShoppingRepository,
  userId: string,
  open: ShoppingRow[],
  amount: Amount,
  ingredient: IngredientInfo | undefined,
): Promise<ShoppingRow> {
  for (const row of open) {
    if (row.ingredient_id !== amount.ingredientId) continue;
    const added = convertFor(amount.quantity, amount.unit, row.unit, ingredient);
    if (added === undefined) continue;
    const updated = await repo.update(userId, row.id, { quantity: roundQuantity(row.quantity + added) });
    return updated!;
  }
  return repo.insert({ userId, ...amount, sourceMealPlanId: null });
}

/**
 * Runs a generation's writes as set-based statements (the list lock is held) and answers the rows
 * merged into or created, as they now are.
 */
async function applyGeneration(
  repo: ShoppingRepository,
  userId: string,
  planId: string,
  open: readonly OpenRow[],
  writes: GenerationWrites,
): Promise<ShoppingRow[]> {
  await repo.deleteMany(writes.deleted);
  await repo.dropShares(planId, writes.sharesDropped);
  await repo.setQuantities(userId, writes.quantities);
  const inserted = await repo.insertMany(userId, writes.inserted, planId);
  await repo.upsertShares(planId, writes.shares);
  const quantities = new Map(writes.quantities.map((q) => [q.id, q.quantity]));
  const rows = new Map<string, ShoppingRow>(inserted.map((r) => [r.id, r]));
  for (const { row } of open) rows.set(row.id, { ...row, quantity: quantities.get(row.id) ?? row.quantity });
  return writes.touched.map((id) => rows.get(id)!);
}

/** A row changing unit keeps its plan shares, converted (dropped when they cannot be). */
async function convertShares(
  repo: ShoppingRepository,
  row: ShoppingRow,
  unit: string,
  ingredient: IngredientInfo,
): Promise<void> {
  if (unit === row.unit) return;
  for (const share of await repo.sharesOf(row.id)) {
    const converted = convertFor(share.quantity, row.unit, unit, ingredient);
    await repo.setShare(row.id, share.mealPlanId, converted === undefined ? 0 : roundQuantity(converted));
  }
}
