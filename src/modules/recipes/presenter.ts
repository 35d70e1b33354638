import type { z } from 'zod';
import type { RecipeSummary } from './contract.ts';
import type {
  CookSchema,
  FavouritesListSchema,
  HistorySchema,
  RatingSchema,
  RecipeDetailSchema,
  RecipeSummarySchema,
} from './schemas.ts';
import type { CookOutcome, HistoryItem, RatingOutcome, RecipeDetail } from './service.ts';

export function presentSummary(s: RecipeSummary): z.infer<typeof RecipeSummarySchema> {
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    cuisine: s.cuisine,
    difficulty: s.difficulty,
    prep_time: s.prepTime,
    cook_time: s.cookTime,
    servings: s.servings,
    calories: s.calories,
    is_favourite: s.isFavourite,
    rating_avg: s.ratingAvg,
    rating_count: s.ratingCount,
    image_url: s.imageUrl,
  };
}

export function presentDetail(r: RecipeDetail): z.infer<typeof RecipeDetailSchema> {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    cuisine: r.cuisine,
    difficulty: r.difficulty,
    prep_time: r.prepTime,
    cook_time: r.cookTime,
    servings: r.servings,
    is_favourite: r.isFavourite,
    rating_avg: r.ratingAvg,
    rating_count: r.ratingCount,
    ingredients: r.ingredients.map((l) => ({
      ingredient_id: l.ingredientId,
      name: l.name,
      quantity: l.quantity,
      unit: l.unit,
    })),
    steps: r.steps.map((instruction, i) => ({ step_number: i + 1, instruction })),
    nutrition: {
      calories: Math.round(r.nutrition.calories),
      protein: r.nutrition.protein,
      carbs: r.nutrition.carbs,
      fat: r.nutrition.fat,
      fiber: r.nutrition.fiber,
    },
    images: r.images,
    meal_types: r.mealTypes,
    is_public: r.isPublic,
  };
}

export function presentFavourite(s: RecipeSummary): z.infer<typeof FavouritesListSchema>['items'][number] {
  return {
    id: s.id,
    title: s.title,
    cuisine: s.cuisine,
    difficulty: s.difficulty,
    prep_time: s.prepTime,
    cook_time: s.cookTime,
    calories: s.calories,
    image_url: s.imageUrl,
  };
}

export function presentRating(r: RatingOutcome): z.infer<typeof RatingSchema> {
  return {
    recipe_id: r.recipeId,
    rating_avg: r.ratingAvg,
    rating_count: r.ratingCount,
    your_rating: r.yourRating,
  };
}

export function presentCook(c: CookOutcome): z.infer<typeof CookSchema> {
  return {
    cooked_at: c.cookedAt.toISOString(),
    inventory_updated: c.inventoryUpdated,
    ingredients_deducted: c.ingredientsDeducted,
  };
}

export function presentHistoryItem(h: HistoryItem): z.infer<typeof HistorySchema>['items'][number] {
  return {
    recipe_id: h.recipeId,
    title: h.title,
    cooked_at: h.cookedAt.toISOString(),
    servings: h.servings,
  };
}
