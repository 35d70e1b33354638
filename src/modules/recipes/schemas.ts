import { z } from 'zod';
import { pagination } from '../../platform/http/ids.ts';
import { DIETARY_RESTRICTIONS } from '../accounts/vocabulary.ts';

const Difficulty = z.enum(['easy', 'medium', 'hard']);
const MealType = z.enum(['breakfast', 'lunch', 'dinner', 'snack']);

export const RecipeSummarySchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    description: z.string(),
    cuisine: z.string(),
    difficulty: Difficulty,
    prep_time: z.number().int(),
    cook_time: z.number().int(),
    servings: z.number().int(),
    calories: z.number().int().describe('per serving'),
    is_favourite: z.boolean().describe('false for anonymous callers'),
    rating_avg: z.number().describe('mean rating, 2 decimals; 0 when unrated'),
    rating_count: z.number().int(),
    image_url: z.string().nullable().describe('the first image; null when the recipe has none'),
  })
  .meta({ id: 'RecipeSummary' });

export const RecipeDetailSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    description: z.string(),
    cuisine: z.string(),
    difficulty: Difficulty,
    prep_time: z.number().int(),
    cook_time: z.number().int(),
    servings: z.number().int(),
    is_favourite: z.boolean(),
    rating_avg: z.number(),
    rating_count: z.number().int(),
    ingredients: z.array(
      z.object({
        ingredient_id: z.number().int(),
        name: z.string(),
        quantity: z.number(),
        unit: z.string(),
      }),
    ),
    steps: z.array(z.object({ step_number: z.number().int(), instruction: z.string() })),
    nutrition: z
      .object({
        calories: z.number(),
        protein: z.number(),
        carbs: z.number(),
        fat: z.number(),
        fiber: z.number(),
      })
      .describe('per serving: calories in kcal (integer), the rest in grams (1 decimal)'),
    images: z.array(z.string()),
    meal_types: z.array(MealType),
    is_public: z.boolean(),
  })
  .meta({ id: 'Recipe' });

export const RecipeSearchQuery = z.object({
  q: z.string().max(200).optional().describe('full text over title, description and ingredient names'),
  category: z.string().max(50).optional().describe('cuisine, case-insensitive'),
  difficulty: Difficulty.optional(),
  max_time: z.coerce.number().int().min(0).max(100_000).optional().describe('prep + cook, minutes'),
  dietary: z.enum(DIETARY_RESTRICTIONS).optional(),
  meal_type: MealType.optional(),
  ...pagination(20),
});

export const RecipeListSchema = z.object({
  items: z.array(RecipeSummarySchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

export const RecipeBody = z.object({
  title: text(200),
  description: z.string().trim().max(4000).default(''),
  cuisine: text(50),
  difficulty: Difficulty,
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
    .array(
      z.object({
        ingredient_id: z.number().int().positive(),
        quantity: z.number().positive().max(1_000_000),
        unit: text(30),
      }),
    )
    .min(1)
    .max(100),
  steps: z
    .array(z.object({ step_number: z.number().int().min(1).max(1000), instruction: text(4000) }))
    .min(1)
    .max(100)
    .refine((steps) => new Set(steps.map((s) => s.step_number)).size === steps.length, {
      message: 'step numbers must be unique',
    }),
  is_public: z.boolean().optional().describe('default false: private to the owner (and admins)'),
  meal_types: z.array(MealType).min(1).max(4).optional().describe('default [lunch, dinner]'),
});

export const FavouriteSchema = z.object({ is_favourite: z.boolean() });

export const RateBody = z.object({
  rating: z.number().int().min(1).max(5),
  notes: z.string().max(2000).nullish(),
});

export const RatingSchema = z.object({
  recipe_id: z.uuid(),
  rating_avg: z.number(),
  rating_count: z.number().int(),
  your_rating: z.number().int(),
});

/** The body is optional: without it the recipe's own servings are cooked. */
export const CookBody = z.object({ servings: z.number().int().min(1).max(100).optional() }).nullish();

export const CookSchema = z.object({
  cooked_at: z.string(),
  inventory_updated: z.boolean(),
  ingredients_deducted: z.number().int(),
});

export const FavouritesListSchema = z.object({
  items: z.array(
    z.object({
      id: z.uuid(),
      title: z.string(),
      cuisine: z.string(),
      difficulty: Difficulty,
      prep_time: z.number().int(),
      cook_time: z.number().int(),
      calories: z.number().int(),
      image_url: z.string().nullable(),
    }),
  ),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

export const HistorySchema = z.object({
  items: z.array(
    z.object({
      recipe_id: z.uuid().nullable().describe('null once the recipe was deleted (the title is kept)'),
      title: z.string(),
      cooked_at: z.string(),
      servings: z.number().int(),
    }),
  ),
  total: z.number().int(),
});

export const PageQuery = z.object(pagination(20));
