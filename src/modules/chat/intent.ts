/**
 * clear_meal_plan is destructive, so the server decides from the user's own words whether it may
 * run; the model's wish is not enough (contract §8). A sentence must pair a clearing verb with the
 * plan, without a negation before the verb ("don't clear my plan" does not count).
 */
const CLEAR_VERB = /\b(clear|wipe|erase|empty|reset|delete|remove|scrap|cancel)\b/i;
const PLAN_NOUN =
  /\b(meal[\s-]?plans?|plans?|week'?s? meals|all (?:my |the )?meals|whole week|entire week)\b/i;
const NEGATION = /\b(don'?t|do not|never|not|no need to|without)\b/i;

export function asksToClearPlan(message: string): boolean {
  return message.split(/[.!?;\n]+/).some((sentence) => {
    const verb = CLEAR_VERB.exec(sentence);
    if (!verb || !PLAN_NOUN.test(sentence)) return false;
    return !NEGATION.test(sentence.slice(0, verb.index));
  });
}

const DAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** 0 = Monday … 6 = Sunday, from a number or a (possibly abbreviated) English day name. */
export function parseDayOfWeek(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 6) return value;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  if (/^[0-6]$/.test(text)) return Number(text);
  if (text.length < 3) return undefined;
  const index = DAY_NAMES.findIndex((d) => d.startsWith(text) || text.startsWith(d));
  return index >= 0 ? index : undefined;
}

export const dayName = (day: number): string => {
  const name = DAY_NAMES[day] ?? '';
  return name.charAt(0).toUpperCase() + name.slice(1);
};
