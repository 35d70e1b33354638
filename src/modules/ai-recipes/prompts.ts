import type { PantryStockItem } from '../pantry/contract.ts';
import type { Evaluation, UserContext } from './evaluate.ts';
import type { ModelDraft } from './schemas.ts';

export const RECIPE_SYSTEM =
  'You are a professional recipe developer. You write practical home recipes with accurate quantities, realistic timings and clear steps. You never use an ingredient the user is allergic to or that breaks their dietary restrictions.';

export const JUDGE_SYSTEM =
  'You are a demanding food critic. You judge how appealing a recipe will be to eat: flavour, texture, balance and whether the method will work. You are honest and brief.';

export interface RequestFacts {
  prompt: string;
  householdSize: number;
}

const list = (values: readonly string[]) => (values.length ? values.join(', ') : 'none');

function liked(weights: Record<string, number>): string[] {
  return Object.entries(weights)
    .filter(([, w]) => w > 0.6)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([k]) => k);
}

function pantryLines(pantry: PantryStockItem[]): string {
  const items = [...pantry].sort((a, b) => Number(b.isExpiringSoon) - Number(a.isExpiringSoon)).slice(0, 40);
  return items
    .map(
      (i) => `- ${i.name} (${i.quantity} ${i.unit}${i.isExpiringSoon ? ', expiring soon: use first' : ''})`,
    )
    .join('\n');
}

export function firstPrompt(request: RequestFacts, user: UserContext): string {
  const hard = [
    `Allergies (never use anything containing them): ${list(user.allergies)}.`,
    `Dietary restrictions (every ingredient must comply): ${list(user.dietaryRestrictions)}.`,
    ...(user.maxMinutes !== null ? [`prep_minutes + cook_minutes must be at most ${user.maxMinutes}.`] : []),
  ];
  const soft = [
    `Servings: ${request.householdSize}.`,
    `Cooking skill: ${user.cookingSkill}. Health goals: ${list(user.healthGoals)}.`,
    ...(user.cuisineHint
      ? [`Cuisine: ${user.cuisineHint}.`]
      : [`Cuisines the user likes: ${list(liked(user.weights.cuisine_weights))}.`]),
    `Ingredients the user likes: ${list(liked(user.weights.ingredient_weights))}.`,
    ...(user.usePantry && user.pantry.length
      ? [`Build the recipe around what is in the pantry, expiring items first:\n${pantryLines(user.pantry)}`]
      : []),
  ];
  return [
    `Create one recipe for this request: """${request.prompt}"""`,
    '',
    'Hard requirements:',
    ...hard.map((h) => `- ${h}`),
    '',
    'Preferences:',
    ...soft.map((s) => `- ${s}`),
    '',
    'Use plain, common ingredient names and standard units; quantities are for the whole recipe.',
  ].join('\n');
}

/** The next pass: the previous draft with what the server found wrong with it. */
export function refinePrompt(
  request: RequestFacts,
  user: UserContext,
  previous: { draft: ModelDraft; evaluation: Evaluation; palatabilityReason: string },
): string {
  const e = previous.evaluation;
  const problems: string[] = [];
  if (e.violations.length)
    problems.push(
      `It breaks the user's hard constraints: ${e.violations.join('; ')}. Replace the offending ingredients.`,
    );
  if (e.overTime)
    problems.push(
      `It takes ${previous.draft.prep_minutes + previous.draft.cook_minutes} minutes; the limit is ${user.maxMinutes}.`,
    );
  if (e.unresolved.length)
    problems.push(
      `These ingredient names are not recognised; use plain common names: ${e.unresolved.join(', ')}.`,
    );
  if (e.nutritionBalance < 0.7) {
    const m = e.macros;
    problems.push(
      `Nutrition per serving is unbalanced (${m.calories} kcal, protein ${m.protein_g} g, carbs ${m.carbs_g} g, fat ${m.fat_g} g, fibre ${m.fiber_g} g); aim for 15–35 % energy from protein, 20–35 % from fat, enough fibre.`,
    );
  }
  if (user.usePantry && e.pantryIds.size < 2 && user.pantry.length)
    problems.push('Use more of the pantry items, expiring ones first.');
  if (previous.palatabilityReason) problems.push(`A critic said: ${previous.palatabilityReason}`);
  return [
    firstPrompt(request, user),
    '',
    'Your previous draft was:',
    JSON.stringify(previous.draft),
    '',
    'Improve it. Problems to fix:',
    ...(problems.length ? problems : ['Make it more appealing.']).map((p) => `- ${p}`),
    'Answer with the complete improved recipe.',
  ].join('\n');
}

export function judgePrompt(draft: ModelDraft): string {
  return [
    'Rate how appealing this recipe will be to eat, from 0 (inedible) to 10 (outstanding), and give the reason in one sentence.',
    JSON.stringify({ name: draft.name, ingredients: draft.ingredients, steps: draft.steps }),
    'Answer {"palatability": <0-10>, "reason": "<one sentence>"}.',
  ].join('\n');
}
