/**
 * Destructive tools run only on the user's own explicit words in the current message; the model's
 * wish is not enough, whatever a recipe text or tool result told it (contract §8). Each check looks
 * for a request (an imperative, a polite "can you …", or a statement of what happened: "I ate …"),
 * not a question asking for advice ("what should I remove?", "did I finish …?"), with the action's
 * verb not negated before it. English only.
 */
const NEGATION = /\b(don'?t|do not|never|not|no need to|without|stop)\b/i;
/** Questions that ask for information or advice rather than action. */
const ADVICE_QUESTION =
  /^\s*(what|which|should|shall|did|do|does|is|are|was|were|have|has|how|why|when|where|who|any)\b/i;
/** Polite requests are requests: "can you …", "could you please …". */
const POLITE_REQUEST = /^\s*(please\s+)?(can|could|would|will)\s+you\b/i;

function sentences(message: string): string[] {
  return message
    .split(/(?<=[.!?;\n])\s*|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The sentence asks for `verb` to be done: not negated before it, not an advice question. */
function requests(sentence: string, verb: RegExp): boolean {
  const found = verb.exec(sentence);
  if (!found) return false;
  if (NEGATION.test(sentence.slice(0, found.index))) return false;
  return POLITE_REQUEST.test(sentence) || !ADVICE_QUESTION.test(sentence);
}

const CLEAR_VERB = /\b(clear|wipe|erase|empty|reset|delete|remove|scrap|cancel|start over)\b/i;
const PLAN_NOUN =
  /\b(meal[\s-]?plans?|plans?|week'?s? meals|all (?:my |the )?meals|whole week|entire week)\b/i;
const ONE_MEAL =
  /\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\b(breakfast|lunch|dinner|snack|supper|today|tonight|tomorrow)\b/i;
const WHOLE = /\b(whole|entire|all|every|everything)\b/i;

/**
 * clear_meal_plan empties a whole week, so only a request to clear the plan itself counts; a
 * sentence naming one day or meal ("remove Friday lunch from my plan") asks for less.
 */
export function asksToClearPlan(message: string): boolean {
  return sentences(message).some(
    (s) => PLAN_NOUN.test(s) && requests(s, CLEAR_VERB) && (!ONE_MEAL.test(s) || WHOLE.test(s)),
  );
}

const REMOVE_VERB =
  /\b(remove|delete|throw(?:n)? (?:out|away)|threw (?:out|away)|toss(?:ed)?|discard(?:ed)?|get rid of|take (?:\w+ )*?(?:out|off)|clear out|used up|use(?:d)? (?:it |them )?(?:all|up)|ran out of|run out of|finished|out of)\b/i;
/** "… from the chicken" is cooking; "… from my fridge" is the pantry. */
const REMOVED_FROM = /\bfrom (?:the |my |a |an |your |our )?(\w+)/i;
const STORAGE =
  /^(pantry|fridge|freezer|cupboard|cupboards|stock|inventory|shelf|shelves|larder|kitchen|list)$/i;

/** remove_from_pantry: a request to take something out of the pantry (or news that it is gone). */
export function asksToRemoveFromPantry(message: string): boolean {
  return sentences(message).some((s) => {
    if (!requests(s, REMOVE_VERB)) return false;
    const from = REMOVED_FROM.exec(s);
    return !from || STORAGE.test(from[1]!);
  });
}

/** Whether the user's words name this pantry item (or all of them): the tool removes only those. */
export function namesPantryItem(message: string, itemName: string): boolean {
  if (/\b(everything|all (?:the |my )?(?:items|of it|of them)|all expired|expired)\b/i.test(message))
    return true;
  const text = normalise(message);
  return normalise(itemName)
    .split(' ')
    .filter((word) => word.length >= 3)
    .some((word) => text.includes(word.replace(/(es|s)$/, '')));
}

const CHANGE_VERB =
  /\b(add|put|set|replace|swap|switch|change|schedule|plan|fill|use|make|move|assign|book|slot|give me)\b/i;
const PLAN_CONTEXT =
  /\b(plan|week|mon|tue|wed|thu|fri|sat|sun|breakfast|lunch|dinner|snack|supper|today|tonight|tomorrow|slot|menu)\w*/i;

/** update_meal_plan_slot: a request to put a recipe into the plan. */
export function asksToChangePlan(message: string): boolean {
  return sentences(message).some((s) => PLAN_CONTEXT.test(s) && requests(s, CHANGE_VERB));
}

const DONE_REQUEST = /\b(mark|log|record|check off|tick off|set)\b/i;
const DONE_WORD = /\b(done|completed?|cooked|eaten|made|finished)\b/i;
const DONE_STATEMENT =
  /\bi(?:'ve| have)?\s+(?:just\s+|already\s+)?(cooked|made|ate|had|finished|prepared|completed)\b/i;

/** mark_meal_completed: "mark Tuesday dinner as done" or "I cooked tonight's dinner". */
export function asksToMarkDone(message: string): boolean {
  return sentences(message).some(
    (s) => (DONE_WORD.test(s) && requests(s, DONE_REQUEST)) || requests(s, DONE_STATEMENT),
  );
}

/**
 * The days (0 = Monday) the user's words name, "today"/"tonight" and "tomorrow" resolved against
 * `today`; 'any' when they speak of the whole week; empty when they name none.
 */
export function daysNamed(message: string, today: number): Set<number> | 'any' {
  if (/\b(whole|entire|every|all)\b[^.!?]*\b(week|days?|plan)\b|\bplan my week\b/i.test(message))
    return 'any';
  const days = new Set<number>();
  const text = message.toLowerCase();
  DAY_NAMES.forEach((name, index) => {
    if (new RegExp(`\\b${name.slice(0, 3)}(${name.slice(3)})?\\b`).test(text)) days.add(index);
  });
  if (/\b(today|tonight)\b/.test(text)) days.add(today);
  if (/\btomorrow\b/.test(text)) days.add((today + 1) % 7);
  return days;
}

function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
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
