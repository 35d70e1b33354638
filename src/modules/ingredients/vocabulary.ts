import { INGREDIENTS } from './seed/ingredients.ts';
import { INGREDIENT_NAMES_AR_FA } from './seed/names-ar-fa.ts';
import { I18N_LANGUAGES, INGREDIENT_NAMES_I18N } from './seed/names-i18n.ts';

export type FoodLanguage = (typeof I18N_LANGUAGES)[number] | 'en' | 'ar' | 'fa';

/**
 * The words of the reference ingredients' names in one language (English with their aliases,
 * German, Dutch, French, Spanish, Italian, Portuguese, Arabic or Persian), in lower case with their
 * accents: how a food's name is spelt there ("abóbora", "maçã", "pêche", "أرز", "strawberries"), for
 * OCR that reads display type without its accents, a letter astray, or Arabic script with a dot or
 * a hamza astray.
 */
export function foodWords(language: FoodLanguage): string[] {
  const cells =
    language === 'en'
      ? INGREDIENTS.flatMap((ingredient) => [ingredient.name, ...ingredient.aliases])
      : language === 'ar' || language === 'fa'
        ? INGREDIENT_NAMES_AR_FA.map((row) => row[language === 'ar' ? 1 : 2])
        : INGREDIENT_NAMES_I18N.map((row) => row[1 + I18N_LANGUAGES.indexOf(language)]!);
  const words = cells
    .flatMap((cell) => cell.toLowerCase().split(/[^\p{L}]+/u))
    .filter((word) => word.length >= 3);
  return [...new Set(words)];
}
