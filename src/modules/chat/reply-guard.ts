import type { UserProfile } from '../accounts/service.ts';
import { violatesProfile } from '../ingredients/diet.ts';
import { normalizeName } from '../ingredients/names.ts';
import type { RecipeForUse } from '../recipes/contract.ts';

/**
 * A reply is checked against the recipe data before it is stored, not against the model's word:
 * every recipe the conversation put in front of the model (tool results of this exchange and of
 * the history, the pinned recipe) that the reply names and the user may not eat gets a note saying
 * so. The model cannot know other recipes of ours, so these are the ones it can name. Pure.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Recipe ids anywhere in tool results. */
export function recipeIdsIn(texts: readonly string[]): string[] {
  return [...new Set(texts.flatMap((t) => t.match(UUID) ?? []).map((id) => id.toLowerCase()))];
}

const plain = (text: string) => ` ${normalizeName(text).replace(/[^\p{L}\p{N}]+/gu, ' ')} `;

export function guardReply(reply: string, recipes: readonly RecipeForUse[], profile: UserProfile): string {
  const text = plain(reply);
  const notes: string[] = [];
  for (const recipe of recipes) {
    const title = plain(recipe.title);
    if (title.trim().length < 4 || !text.includes(title)) continue;
    const reasons = violatesProfile(recipe, profile);
    if (reasons.length > 0) notes.push(`“${recipe.title}” is not for you: ${reasons.join('; ')}.`);
  }
  if (notes.length === 0) return reply;
  return `${reply}\n\n⚠️ Checked against your profile: ${notes.join(' ')}`;
}
