import type { TestApp } from './app.ts';

/** Loads the full reference ingredient table (711 rows) through the ingredients service. */
export async function seedIngredientsForTest(ctx: TestApp): Promise<void> {
  await ctx.services.ingredients.seedIngredients();
}
