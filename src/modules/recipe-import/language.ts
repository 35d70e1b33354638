import { franc } from 'franc';

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
  cat: 'ca',
  ell: 'el',
  hrv: 'hr',
  slv: 'sl',
  ind: 'id',
  vie: 'vi',
  jpn: 'ja',
  cmn: 'zh',
  kor: 'ko',
  arb: 'ar',
  pes: 'fa',
  heb: 'he',
  hin: 'hi',
};

const CANDIDATES = [
  ...Object.keys(TWO_LETTER),
  ...'cat glg eus ell bul srp hrv slv lit lav est isl gle cym ind vie tha jpn cmn kor arb pes heb hin'.split(
    ' ',
  ),
];

export function recogniseLanguage(texts: readonly string[]): string {
  const text = texts.join('\n').slice(0, 4000);
  // Candidates: the languages recipe sites are written in; with all 400 of franc's, short
  // ingredient lists drift into rare neighbours (Slovak read as Bosnian).
  const code = franc(text, { minLength: 20, only: CANDIDATES });
  return code === 'und' ? 'und' : (TWO_LETTER[code] ?? code);
}
