import { z } from 'zod';
import { generateObject, type LlmProvider } from '../../providers/llm/index.ts';
import type { PlannedWeek } from './planner.ts';

const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const Choice = z.object({ choice: z.coerce.number().int(), reason: z.string().optional() });

/**
 * Lets the model pick among weeks the planner already validated: it can only choose one of them
 * (an index), never add a recipe, so it cannot introduce a violation. Any model failure or an
 * out-of-range answer keeps the planner's own best (index 0): generation works without a model.
 */
export async function rerankWeeks(
  llm: LlmProvider,
  weeks: PlannedWeek[],
  userSummary: string,
): Promise<number> {
  if (weeks.length < 2 || !llm.isConfigured('recipe')) return 0;
  try {
    const { object } = await generateObject(llm, {
      purpose: 'recipe',
      schema: Choice,
      system:
        'You are a nutritionist choosing the most appealing, varied and goal-appropriate weekly meal plan for a user. All candidate plans are already safe for the user.',
      prompt: `${userSummary}\n\n${weeks.map(describeWeek).join('\n\n')}\n\nAnswer {"choice": <plan number>, "reason": "<one sentence>"}.`,
      temperature: 0,
    });
    const index = object.choice - 1;
    return index >= 0 && index < weeks.length ? index : 0;
  } catch {
    return 0;
  }
}

function describeWeek(week: PlannedWeek, index: number): string {
  const lines = [`Plan ${index + 1}:`];
  for (let day = 0; day < 7; day++) {
    const meals = week.slots
      .filter((s) => s.day === day)
      .map((s) => `${s.mealType}: ${s.recipe.title} (${s.recipe.cuisine})`);
    if (meals.length) lines.push(`${DAY_NAMES[day]}: ${meals.join('; ')}`);
  }
  return lines.join('\n');
}
