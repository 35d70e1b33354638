import { AppError } from '../../platform/errors.ts';
import type { MealPlansService, PlanDetail, Slot } from '../meal-plans/service.ts';
import type { AssistantMealPlans, PlanSlotView, PlanView } from './ports.ts';

/** The assistant's week-oriented view of the meal-plans service (plans are addressed by week). */
export function assistantMealPlans(mealPlans: MealPlansService): AssistantMealPlans {
  return {
    currentWeekStart: () => mealPlans.currentWeekStart(),
    async getPlan(userId, weekStart) {
      const plan = await mealPlans.getPlanForWeek(userId, weekStart);
      return plan ? toView(plan) : undefined;
    },
    async setSlot(viewer, weekStart, slot) {
      const plan = await mealPlans.getOrCreatePlan(viewer.id, weekStart);
      return toSlotView(await mealPlans.setSlot(viewer, plan.id, slot));
    },
    async markCompleted(userId, weekStart, day, mealType) {
      const plan = await mealPlans.getPlanForWeek(userId, weekStart);
      if (!plan) return false;
      try {
        await mealPlans.markCompleted(userId, plan.id, day, mealType);
        return true;
      } catch (error) {
        if (error instanceof AppError && error.status === 404) return false;
        throw error;
      }
    },
    async clearPlan(userId, weekStart) {
      const plan = await mealPlans.getPlanForWeek(userId, weekStart);
      return plan ? mealPlans.clearPlan(userId, plan.id) : 0;
    },
  };
}

function toView(plan: PlanDetail): PlanView {
  return { id: plan.id, weekStart: plan.weekStart, slots: plan.slots.map(toSlotView) };
}

function toSlotView(slot: Slot): PlanSlotView {
  return {
    id: slot.id,
    day: slot.day,
    mealType: slot.mealType,
    recipeId: slot.recipeId,
    recipeTitle: slot.recipeTitle ?? '',
    servings: slot.servings,
    isCompleted: slot.isCompleted,
  };
}
