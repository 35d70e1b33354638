import { I18N_LANGUAGES, INGREDIENT_NAMES_I18N } from './seed/names-i18n.ts';

export type FoodLanguage = (typeof I18N_LANGUAGES)[number];

/**
 * The words of the reference ingredients' names in one language (German, Dutch, French, Spanish,
 * Italian or Portuguese), in lower case with their accents: how a food's name is spelt there
 * ("abóbora", "maçã", "pêche"), for OCR that reads display type without its accents.
 */
export function foodWords(language: FoodLanguage): string[] {
  const column = 1 + I18N_LANGUAGES.indexOf(language);
  const words = INGREDIENT_NAMES_I18N.flatMap((row) => row[column]!.toLowerCase().split(/[^\p{L}]+/u)).filter(
    (word) => word.length >= 3,
  );
  return [...new Set(words)];
}
