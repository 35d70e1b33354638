import type { WeekNutrition } from './nutrition.ts';
import type { MealPlanDetail, SlotBody } from './schemas.ts';
import type { DeductedAmount } from '../pantry/contract.ts';
import type { PlanDetail, PlanSummary, Slot, SlotWithCooking } from './service.ts';

export function presentSlot(slot: Slot): SlotBody {
  return {
    id: slot.id,
    day: slot.day,
    meal_type: slot.mealType,
    recipe_id: slot.recipeId,
    recipe_title: slot.recipeTitle,
    servings: slot.servings,
    is_flex: slot.isFlex,
    flex_type: slot.flexType,
    is_completed: slot.isCompleted,
  };
}

const presentAmount = (a: DeductedAmount) => ({
  ingredient_id: a.ingredientId,
  name: a.name,
  quantity: Math.round(a.quantity * 1000) / 1000,
  unit: a.unit,
});

export function presentUpdatedSlot(slot: SlotWithCooking) {
  return {
    ...presentSlot(slot),
    cooking: slot.cooking
      ? {
          cooked_at: slot.cooking.cookedAt.toISOString(),
          deducted: slot.cooking.deducted.map(presentAmount),
          missing: slot.cooking.missing.map(presentAmount),
        }
      : null,
  };
}

/** The Meal plan (detail) of the spec; also what POST /api/meal-plans/generate answers. */
export function presentPlanDetail(plan: PlanDetail): MealPlanDetail {
  return { id: plan.id, week_start: plan.weekStart, slots: plan.slots.map(presentSlot) };
}

export function presentPlanSummary(plan: PlanSummary) {
  return {
    id: plan.id,
    week_start: plan.weekStart,
    created_at: plan.createdAt.toISOString(),
    slot_count: plan.slotCount,
  };
}

export function presentNutrition(week: WeekNutrition) {
  return {
    days: week.days.map((d) => ({
      day: d.day,
      day_name: d.dayName,
      total_calories: d.totalCalories,
      total_protein: d.totalProtein,
      total_carbs: d.totalCarbs,
      total_fat: d.totalFat,
      meals: d.meals.map((m) => ({ meal_type: m.mealType, calories: m.calories, protein: m.protein })),
    })),
    week_totals: {
      avg_daily_calories: week.weekTotals.avgDailyCalories,
      avg_daily_protein: week.weekTotals.avgDailyProtein,
    },
  };
}
