import { franc } from 'franc-min';

/**
 * The language a recipe is written in, recognised from its own text (trigram statistics of
 * title, ingredient lines and steps, through franc). Never a setting: a German page is German
 * because it reads German. Short texts say "und" (undetermined).
 */
const TWO_LETTER: Readonly<Record<string, string>> = {
  eng: 'en',
  deu: 'de',
  nld: 'nl',
  fra: 'fr',
  spa: 'es',
  ita: 'it',
  por: 'pt',
  hun: 'hu',
  swe: 'sv',
  dan: 'da',
  nob: 'no',
  pol: 'pl',
  ces: 'cs',
  slk: 'sk',
  rus: 'ru',
  ukr: 'uk',
  tur: 'tr',
  ron: 'ro',
  fin: 'fi',
};

export function recogniseLanguage(texts: readonly string[]): string {
  const text = texts.join('\n').slice(0, 4000);
  const code = franc(text, { minLength: 20 });
  return code === 'und' ? 'und' : (TWO_LETTER[code] ?? code);
}
