import { z } from 'zod';
import { pagination } from '../../platform/http/ids.ts';
import { IsoDate } from '../pantry/dates.ts';
import { FLEX_TYPES, MEAL_TYPES } from './tables.ts';

export const MealType = z.enum(MEAL_TYPES);
export const FlexType = z.enum(FLEX_TYPES);
const day = z.number().int().min(0).max(6);
const servings = z.number().int().min(1).max(100);
/** A malformed id in a body is treated like an unknown one: 400 on recipe_id (see the service). */
const recipeId = z.string().max(64);

export const SlotSchema = z
  .object({
    id: z.uuid(),
    day: z.number().int(),
    meal_type: MealType,
    recipe_id: z.string().nullable(),
    recipe_title: z.string().nullable(),
    servings: z.number().int(),
    is_flex: z.boolean(),
    flex_type: FlexType.nullable(),
    is_completed: z.boolean(),
  })
  .meta({ id: 'MealPlanSlot' });
export type SlotBody = z.infer<typeof SlotSchema>;

const CookedAmount = z.object({
  ingredient_id: z.number().int(),
  name: z.string(),
  quantity: z.number(),
  unit: z.string(),
});

/** PUT …/slots/:slotId: the slot, and what completing it cooked (null when this change cooked nothing). */
export const UpdatedSlotSchema = SlotSchema.extend({
  cooking: z
    .object({
      cooked_at: z.string(),
      deducted: z.array(CookedAmount).describe('taken from the pantry, soonest expiry first'),
      missing: z.array(CookedAmount).describe('what the pantry lacked'),
    })
    .nullable()
    .describe(
      'set when this change completed the slot and cooked its recipe at the slot’s servings (once per slot)',
    ),
}).meta({ id: 'UpdatedMealPlanSlot' });

export const MealPlanDetailSchema = z
  .object({ id: z.uuid(), week_start: z.string(), slots: z.array(SlotSchema) })
  .meta({ id: 'MealPlan' });
export type MealPlanDetail = z.infer<typeof MealPlanDetailSchema>;

export const MealPlanSummarySchema = z
  .object({ id: z.uuid(), week_start: z.string(), created_at: z.string(), slot_count: z.number().int() })
  .meta({ id: 'MealPlanSummary' });

export const MealPlanListQuery = z.object(pagination(100));

export const CreateMealPlanBody = z.object({ week_start: IsoDate });

export const CreateSlotBody = z.object({
  day,
  meal_type: MealType,
  recipe_id: recipeId.nullable().default(null),
  servings: servings.optional(),
  is_flex: z.boolean().default(false),
  flex_type: FlexType.nullable().default(null),
});

export const UpdateSlotBody = z.object({
  recipe_id: recipeId.nullable().optional(),
  servings: servings.optional(),
  is_flex: z.boolean().optional(),
  flex_type: FlexType.nullable().optional(),
  is_completed: z.boolean().optional(),
});

export const SlotParams = z.object({ id: z.string(), slotId: z.string() });

export const NutritionSchema = z
  .object({
    days: z.array(
      z.object({
        day: z.number().int(),
        day_name: z.string(),
        total_calories: z.number(),
        total_protein: z.number(),
        total_carbs: z.number(),
        total_fat: z.number(),
        meals: z.array(z.object({ meal_type: MealType, calories: z.number(), protein: z.number() })),
      }),
    ),
    week_totals: z.object({ avg_daily_calories: z.number(), avg_daily_protein: z.number() }),
  })
  .meta({ id: 'MealPlanNutrition' });
