import { z } from 'zod';

export const GenerateRecipeBody = z.object({
  prompt: z
    .string()
    .max(2000, 'must be at most 2000 characters')
    .refine((v) => v.trim().length > 0, 'must not be empty'),
  use_pantry: z.boolean().default(false),
  cuisine_hint: z.string().trim().max(60).nullish(),
  max_minutes: z.number().int().min(1).max(1440).nullish(),
});

export const RecipeDraftSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    cuisine: z.string(),
    difficulty: z.enum(['easy', 'medium', 'hard']),
    prep_minutes: z.number().int(),
    cook_minutes: z.number().int(),
    servings: z.number().int(),
    ingredients: z.array(
      z.object({ name: z.string(), quantity: z.number(), unit: z.string(), is_pantry_item: z.boolean() }),
    ),
    steps: z.array(z.string()),
    macros_per_serving: z.object({
      calories: z.number(),
      protein_g: z.number(),
      carbs_g: z.number(),
      fat_g: z.number(),
      fiber_g: z.number(),
    }),
    tags: z.array(z.string()),
    score: z.object({
      overall: z.number(),
      palatability: z.number(),
      nutrition_balance: z.number(),
      preference_match: z.number(),
      palatability_reason: z.string(),
      iterations: z.number().int(),
    }),
  })
  .meta({ id: 'AiRecipeDraft' });
export type RecipeDraft = z.infer<typeof RecipeDraftSchema>;

/** What the model must produce; lenient where small models stray (numbers as strings, step objects). */
export const ModelDraft = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().trim().max(2000).default(''),
  cuisine: z.string().trim().max(60).default('international'),
  difficulty: z.string().trim().toLowerCase().default('medium'),
  prep_minutes: z.coerce.number().int().min(0).max(1440),
  cook_minutes: z.coerce.number().int().min(0).max(1440),
  servings: z.coerce.number().int().min(1).max(50),
  ingredients: z
    .array(
      z.object({
        name: z.string().trim().min(1).max(200),
        quantity: z.coerce.number().min(0).max(100_000).default(0),
        unit: z.string().trim().max(30).default(''),
      }),
    )
    .min(1)
    .max(60),
  steps: z
    .array(
      z.union([
        z.string().trim().min(1),
        z.object({ instruction: z.string().trim().min(1) }).transform((s) => s.instruction),
      ]),
    )
    .min(1)
    .max(40),
  tags: z.array(z.string().trim().max(40)).max(20).default([]),
});
export type ModelDraft = z.infer<typeof ModelDraft>;

/** The JSON Schema the model is shown for ModelDraft. */
export const MODEL_DRAFT_JSON_SCHEMA = {
  type: 'object',
  required: [
    'name',
    'description',
    'cuisine',
    'difficulty',
    'prep_minutes',
    'cook_minutes',
    'servings',
    'ingredients',
    'steps',
    'tags',
  ],
  properties: {
    name: { type: 'string' },
    description: { type: 'string', description: 'one or two sentences' },
    cuisine: { type: 'string' },
    difficulty: { type: 'string', enum: ['easy', 'medium', 'hard'] },
    prep_minutes: { type: 'integer' },
    cook_minutes: { type: 'integer' },
    servings: { type: 'integer' },
    ingredients: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'quantity', 'unit'],
        properties: {
          name: { type: 'string', description: 'plain ingredient name, e.g. "chickpeas"' },
          quantity: { type: 'number', description: 'for the whole recipe' },
          unit: { type: 'string', description: 'g, kg, ml, l, tsp, tbsp, cup, piece, clove, can' },
        },
      },
    },
    steps: { type: 'array', items: { type: 'string' } },
    tags: { type: 'array', items: { type: 'string' } },
  },
} as const;

export const Judgement = z.object({
  palatability: z.coerce.number().min(0).max(10),
  reason: z.string().trim().min(1).max(1000),
});
