import { inPersianForms, SAME_STROKE } from './arabic-letters.ts';
import { type ArabicScriptFoods, spelledAsFood } from './arabic-spelling.ts';
import { fold, HunspellDictionary, type DictionaryWord } from './hunspell.ts';
import { withoutGarbledQualifiers } from './latin-names.ts';
import type { OcrWord } from './ocr.ts';

/**
 * Languages whose spelling dictionary ships with the service (npm `dictionary-*`, LGPL/MPL/MIT,
 * Persian's Apache-2.0). German's and Italian's are GPL-only and are left out; npm has no Arabic one.
 */
export type SpellingLanguage = 'en' | 'pt' | 'es' | 'fr' | 'fa';

const PACKAGES: Record<SpellingLanguage, string> = {
  en: 'dictionary-en',
  pt: 'dictionary-pt',
  es: 'dictionary-es',
  fr: 'dictionary-fr',
  fa: 'dictionary-fa',
};

export const SPELLING_LANGUAGES = Object.keys(PACKAGES) as SpellingLanguage[];

/** OCR loses marks more than it adds them: each letter as read, and the marked ones it may have lost. */
const PERSIAN_MARK_LOST: Record<string, string> = {
  ک: 'گ',
  ج: 'چ',
  ح: 'جچخ',
  ب: 'پ',
  ی: 'پ',
  ر: 'زژ',
  ز: 'ژ',
  د: 'ذ',
  س: 'ش',
  ص: 'ض',
  ط: 'ظ',
  ع: 'غ',
};

/** Shorter words are left as read: too many words lie one letter apart. */
const MIN_CORRECTED_LETTERS = 5;
/** The confidence at least of a word the dictionary holds as read (or but for accents)... */
const SPELT = 0.85;
/** ...and of one it holds a letter away. */
const CORRECTED = 0.7;
const MIN_CONFIRMED_LETTERS = 4;
/** Only words OCR was unsure of are changed by a letter: a brand it read well is not a typo. */
const UNSURE = 0.8;
/**
 * A word OCR read with its second letter in capitals ("SHoulder"): a word the dictionary holds is
 * given its printed case back, so that the names step does not take it for a garbled one.
 */
const MISCASED_HEAD = /^\p{Lu}{2}\p{Ll}{2}/u;
/** A unit OCR glued to the word before it ("Brancakg"). */
const GLUED_UNIT = /^(\p{L}{3,}?)(kg|lb)$/iu;
const FOLDED_LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * OCR's words checked against the page language's dictionary. Display faces in capitals lose
 * their accents ("ACEM", "COXAO") and a letter here and there ("ABGCAXI"): a word the dictionary
 * does not hold becomes the one word it holds with the same letters once accents are ignored, or
 * the one word a single letter away; a unit glued to a word is split from it. A word the dictionary
 * cannot settle is left as read. Dictionaries are loaded at a page's first use of them.
 */
export class SpellingCorrector {
  readonly #dictionaries = new Map<SpellingLanguage, Promise<HunspellDictionary>>();

  async correct(
    words: readonly OcrWord[],
    language: SpellingLanguage,
    preferred: PreferredSpellings = NO_PREFERENCES,
    foods?: ArabicScriptFoods,
  ): Promise<OcrWord[]> {
    const dictionary = await this.#dictionary(language);
    const page: PageSpelling = {
      dictionary,
      budget: pageBudget(),
      preferred,
      foods,
      stressMarked: STRESS_MARKED.has(language),
      // US flyers print Spanish names a letter from several English words, one a food ("Carne").
      foodAmongSeveral: language !== 'en',
      cedilla: CEDILLA_WRITTEN.has(language),
    };
    const corrected = words.flatMap((word) => correctWord(word, page));
    return HEAD_FIRST.has(language)
      ? withoutGarbledQualifiers(corrected, preferred, language === 'fr')
      : corrected;
  }

  /** The language's dictionary read now rather than at a page's first use of it. */
  async load(language: SpellingLanguage): Promise<void> {
    await this.#dictionary(language);
  }

  #dictionary(language: SpellingLanguage): Promise<HunspellDictionary> {
    let loading = this.#dictionaries.get(language);
    if (!loading) {
      loading = import(PACKAGES[language]).then(
        ({ default: data }: { default: { aff: Uint8Array; dic: Uint8Array } }) => {
          const text = new TextDecoder();
          return new HunspellDictionary(text.decode(data.aff), text.decode(data.dic));
        },
      );
      this.#dictionaries.set(language, loading);
    }
    return loading;
  }
}

/**
 * Words whose spelling wins over the dictionary's when they are the only one with a word's letters,
 * accents aside: the dictionary holds "abobora" (a verb form) beside "abóbora", and "maca" beside
 * "maçã", so it cannot tell which a flyer printed in capitals without accents; a grocery flyer
 * means the food.
 */
export class PreferredSpellings {
  readonly #byFolded = new Map<string, string | null>();

  constructor(words: Iterable<string>) {
    for (const word of words) {
      const folded = fold(word);
      const seen = this.#byFolded.get(folded);
      // Two spellings of one folded form ("cafe", "café") settle nothing.
      this.#byFolded.set(folded, seen === undefined || seen === word ? word : null);
    }
  }

  /** The one preferred word spelt `folded` once accents are ignored. */
  spelling(folded: string): string | undefined {
    return this.#byFolded.get(folded) ?? undefined;
  }

  /** The one preferred word nearest `folded`, if no more than `edits` letters away and alone there. */
  onlyWithin(folded: string, edits: number): string | undefined {
    let best = Infinity;
    let found: string | undefined;
    for (const [other, word] of this.#byFolded) {
      if (word === null || Math.abs(other.length - folded.length) > edits) continue;
      const distance = editDistance(folded, other, Math.min(best, edits) + 1);
      if (distance > edits || distance > best) continue;
      // A second word as near settles nothing, unless a nearer one turns up.
      found = distance < best ? word : undefined;
      best = distance;
    }
    return found;
  }
}

/**
 * Letters deleted, inserted, replaced or swapped with a neighbour between `a` and `b` (optimal
 * string alignment); `limit` once it cannot be less.
 */
function editDistance(a: string, b: string, limit: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let before = previous;
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const replaced = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      let cost = Math.min(previous[j]! + 1, row[j - 1]! + 1, replaced);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        cost = Math.min(cost, before[j - 2]! + 1);
      row.push(cost);
    }
    if (Math.min(...row) >= limit) return limit;
    [before, previous] = [previous, row];
  }
  return Math.min(previous[b.length]!, limit);
}

const NO_PREFERENCES = new PreferredSpellings([]);

/** A word at least this long may become the food a letter away where no dictionary checks it. */
const MIN_FOOD_MENDED_LETTERS = 7;
const LATIN_WORD_PARTS = /^([^\p{L}\d]*)(\p{Script=Latin}+)([^\p{L}\d]*)$/u;

/**
 * A page in a language with no dictionary here (German) checked against its foods' names alone: a
 * word spelt as a food once accents are ignored takes the food's spelling ("Hahnchenbrustfilet",
 * umlauts lost), and an unsure long word a letter from one food and no other becomes it
 * ("VolliMilch"). Every other word stays as read: with no dictionary, nothing tells a typo from a
 * brand or a word the vocabulary lacks.
 */
export function spelledAsFoods(words: readonly OcrWord[], foods: PreferredSpellings): OcrWord[] {
  const budget = pageBudget();
  return words.map((word) => spelledAsFoodWord(word, foods, budget));
}

function spelledAsFoodWord(word: OcrWord, foods: PreferredSpellings, budget: SearchBudget): OcrWord {
  const parts = LATIN_WORD_PARTS.exec(word.text);
  if (word.settled || !parts) return word;
  const [, before, read, after] = parts as unknown as [string, string, string, string];
  const folded = fold(read);
  if (folded.length < MIN_CONFIRMED_LETTERS || folded.length > MAX_WORD_LETTERS) return word;
  const spelt = respeller(word, before, read, after, folded);
  const food = foods.spelling(folded);
  if (food) return spelt(food, SPELT);
  if (word.confidence >= UNSURE) return word;
  const misread = foodThroughConfusions(folded, foods);
  if (misread) return spelt(misread, CORRECTED);
  if (folded.length < MIN_FOOD_MENDED_LETTERS || !spent(budget, folded)) return word;
  const near = new Set([...oneLetterEdits(folded)].flatMap((edit) => foods.spelling(edit) ?? []));
  return near.size === 1 ? spelt([...near][0]!, CORRECTED) : word;
}

/**
 * The word as read, respelt `spelling` in the case it was printed, its marks kept around it, and
 * trusted at least `least`.
 */
function respeller(word: OcrWord, before: string, letters: string, after: string, folded: string) {
  return (spelling: string, least: number): OcrWord =>
    confirmed({ ...word, text: before + inCaseOf(letters, spelling) + after }, folded, least);
}

/**
 * A hostile picture can hold thousands of long garbage words, and a search a letter away costs
 * ~1 ms a letter of the word (ten letters: 8 ms): each page may search words of this many letters
 * in all (about 60 ten-letter words; the real and generated pages use five searches at most), and
 * longer words none.
 */
const MAX_SEARCHED_LETTERS_PER_PAGE = 600;

/** The letters a page may still search. */
interface SearchBudget {
  letters: number;
}

const pageBudget = (): SearchBudget => ({ letters: MAX_SEARCHED_LETTERS_PER_PAGE });

/** Whether the page can afford a search for `folded`; if so, paid. */
function spent(budget: SearchBudget, folded: string): boolean {
  if (budget.letters < folded.length) return false;
  budget.letters -= folded.length;
  return true;
}
const MAX_WORD_LETTERS = 24;

/** What one page's words are checked against. */
interface PageSpelling {
  dictionary: HunspellDictionary;
  budget: SearchBudget;
  preferred: PreferredSpellings;
  foods: ArabicScriptFoods | undefined;
  /** Whether the language marks a stress before the last syllable (Portuguese, Spanish). */
  stressMarked: boolean;
  /** Whether a food may be taken among several words a letter away. */
  foodAmongSeveral: boolean;
  /** Whether the language writes "ç" (Portuguese, French), which display faces make OCR read "g". */
  cedilla: boolean;
}

/**
 * Portuguese and Spanish write the stress of every word stressed before its last two syllables
 * ("pérola", "fígado", "cáscara"), so such a noun printed in capitals without its accent reads as
 * the verb form the dictionary also holds ("perola": pearls, of "perolar").
 */
const STRESS_MARKED = new Set<SpellingLanguage>(['pt', 'es']);
const CEDILLA_WRITTEN = new Set<SpellingLanguage>(['pt', 'fr']);
/** Languages whose product names head with the food (see latin-names.ts). */
const HEAD_FIRST = new Set<SpellingLanguage>(['pt', 'es', 'fr']);
/** A word OCR was sure of is mended only when this long, and only into a food. */
const SURE_MENDED_LETTERS = 8;
/** An unsure word this long may become the one food two letters away ("Espaguetll"). */
const TWO_LETTERS_MENDED = 8;

function correctWord(word: OcrWord, page: PageSpelling): OcrWord[] {
  const { dictionary, budget, preferred, foods } = page;
  const parts = /^([^\p{L}\d]*)(\p{Script=Latin}+|[\p{Script=Arabic}\u200c]+)([^\p{L}\d]*)$/u.exec(word.text);
  if (word.settled || !parts) return [word];
  const [, before, read, after] = parts as unknown as [string, string, string, string];
  const persian = /\p{Script=Arabic}/u.test(read);
  // The Persian and Arabic models write yeh and kaf each their way (ي ك / ی ک): Persian's here.
  const core = persian ? inPersianForms(read) : read;
  const folded = fold(core);
  if (folded.length < 3 || folded.length > MAX_WORD_LETTERS) return [word];
  const spelt = respeller(word, before, core, after, folded);
  const same = dictionary.wordsFolding(folded);
  const asRead = same.find((w) => w.word === core.toLowerCase());
  // A food's spelling wins over a form the dictionary makes ("abobora"), not over its own entry
  // ("mais", but, beside "maïs", maize).
  const food = asRead?.stem || folded.length < MIN_CONFIRMED_LETTERS ? undefined : preferred.spelling(folded);
  if (food) return [spelt(food, SPELT)];
  const cedilla = page.cedilla ? cedillaRestored(core, folded, preferred) : undefined;
  if (cedilla) return [confirmed({ ...word, text: before + cedilla + after }, folded, CORRECTED)];
  const stressed = asRead && page.stressMarked ? stressedNoun(asRead, same) : undefined;
  if (stressed) return [spelt(stressed, SPELT)];
  if (asRead) return [MISCASED_HEAD.test(core) ? spelt(asRead.word, SPELT) : confirmed(word, folded, SPELT)];
  const accented = only(same);
  if (accented) return [spelt(accented, SPELT)];
  if (same.length > 0) return [word];
  // tesseract's Persian model is sure of words it misread by a dot: its certainty is not asked.
  // A food's name the dictionary lacks ("لیقوان") comes before the dictionary's nearest word; a
  // word it holds stays, though a food be a dot away: "بسته" (a pack) is not "پسته" (pistachios).
  if (persian)
    return [
      (foods && spelledAsFood(word, foods)) ||
        nearestPersian(word, before, after, folded, dictionary, budget, foods),
    ];
  const joined = persian ? undefined : gluedWords(core, dictionary);
  if (joined) return splitWord(word, before, joined, after);
  const sure = word.confidence >= UNSURE;
  if (folded.length < MIN_CORRECTED_LETTERS || (sure && folded.length < SURE_MENDED_LETTERS)) return [word];
  const misread = sure ? undefined : foodThroughConfusions(folded, preferred);
  if (misread) return [spelt(misread, CORRECTED)];
  // The foods are few: a sure word spends none of the page's budget unless one is a letter away.
  if (sure && !preferred.onlyWithin(folded, 1)) return [word];
  const glued = GLUED_UNIT.exec(core);
  if (!sure && glued && !after && dictionary.wordsFolding(fold(glued[1]!)).length > 0)
    return splitWord(word, before, [glued[1]!, glued[2]!], after);
  if (!spent(budget, folded)) return [word];
  const candidates = oneLetterAway(folded, dictionary);
  const near = sure ? onlyFoodAlone(candidates, preferred) : mended(folded, candidates, page);
  return [near ? spelt(near, CORRECTED) : word];
}

/**
 * Glyphs of display faces OCR reads as others, as read → as printed (folded): "Ç" as "G" (its
 * cedilla taken for a tail), "U" and "Ú" as "II" or "LI" (two strokes), "ú" as "i" or "t" (its
 * accent taken for a dot or a cross stroke), "M" as "RN", "D" as "CL".
 */
const GLYPH_CONFUSIONS: ReadonlyArray<readonly [string, string]> = [
  ['g', 'c'],
  ['ii', 'u'],
  ['li', 'u'],
  ['i', 'u'],
  ['t', 'u'],
  ['rn', 'm'],
  ['cl', 'd'],
];
const MAX_GLYPH_CONFUSIONS = 2;

/**
 * The one food an unsure word spells once up to two of OCR's glyph confusions are undone:
 * "AGIICAR" is "AÇÚCAR", though the dictionary holds "agriçar" a letter away.
 */
function foodThroughConfusions(folded: string, preferred: PreferredSpellings): string | undefined {
  const foods = new Set<string>();
  const undo = (text: string, from: number, left: number) => {
    for (const [read, printed] of GLYPH_CONFUSIONS) {
      for (let at = text.indexOf(read, from); at >= 0; at = text.indexOf(read, at + 1)) {
        const undone = text.slice(0, at) + printed + text.slice(at + read.length);
        const food = preferred.spelling(undone);
        if (food) foods.add(food);
        if (left > 1) undo(undone, at + printed.length, left - 1);
      }
    }
  };
  undo(folded, 0, MAX_GLYPH_CONFUSIONS);
  return foods.size === 1 ? [...foods][0] : undefined;
}

/**
 * A "ç" whose cedilla OCR took for a tail reads "g", however sure, and the word may then be one
 * the dictionary holds ("Maga" for "Maça", the flyer's own spelling of "maçã"): a word that is no
 * food as read, but a food (accents aside) with one "g" read as "ç", is the food as printed. Only
 * that letter changes: the flyer's spelling is kept, accents and all.
 */
function cedillaRestored(core: string, folded: string, preferred: PreferredSpellings): string | undefined {
  if (!/g/iu.test(core) || preferred.spelling(folded)) return undefined;
  const restored = [...core.matchAll(/g/giu)].flatMap(({ index }) => {
    const respelt = core.slice(0, index) + (core[index] === 'G' ? 'Ç' : 'ç') + core.slice(index + 1);
    return preferred.spelling(fold(respelt)) ? [respelt] : [];
  });
  return restored.length === 1 ? restored[0] : undefined;
}

/**
 * The word an unsure one was misread from: the one word the dictionary holds a letter away, or the
 * one food among several; with none a letter away, a long word's one food two letters away.
 */
function mended(folded: string, candidates: readonly DictionaryWord[], page: PageSpelling) {
  const near = only(candidates) ?? (page.foodAmongSeveral ? onlyFood(candidates, page.preferred) : undefined);
  if (near || candidates.length > 0 || folded.length < TWO_LETTERS_MENDED) return near;
  return page.preferred.onlyWithin(folded, 2);
}

/**
 * A word OCR was sure of is a brand as often as a typo ("Tarantella" beside "tarantela"): it is
 * mended only when the one word a letter away is a food ("Strawbefries").
 */
function onlyFoodAlone(candidates: readonly DictionaryWord[], preferred: PreferredSpellings) {
  return candidates.length === 1 ? preferred.spelling(fold(candidates[0]!.word)) : undefined;
}

/**
 * The noun a stress-marked language's dictionary holds beside a verb form read without accents:
 * the one stem differing from it by an acute or circumflex before its last two letters ("pérola"
 * for "perola"). One on the last syllable is left: "batatá", "mangá" are not what a flyer sells.
 */
function stressedNoun(asRead: DictionaryWord, same: readonly DictionaryWord[]): string | undefined {
  if (asRead.stem) return undefined;
  const stems = same.filter((w) => w.stem && w.word !== asRead.word);
  if (stems.length !== 1 || stems[0]!.word.length !== asRead.word.length) return undefined;
  const stem = stems[0]!.word;
  const differing = [...stem].flatMap((letter, i) => (letter === asRead.word[i] ? [] : [i]));
  if (differing.length !== 1) return undefined;
  const at = differing[0]!;
  return /[áéíóúâêô]/u.test(stem[at]!) && at < stem.length - 2 ? stem : undefined;
}

/**
 * Persian words are short, so a misread one is corrected only into a letter of its stroke's group
 * (SAME_STROKE), where any letter a word away would leave several words to choose from.
 * The one word of the dictionary a confusable letter away from a misread Persian word, if one:
 * first among the letters with the mark OCR lost ("کوشت" → "گوشت" rather than "کوشی"), then among
 * all letters of the same stroke.
 */
function nearestPersian(
  word: OcrWord,
  before: string,
  after: string,
  folded: string,
  dictionary: HunspellDictionary,
  budget: SearchBudget,
  foods?: ArabicScriptFoods,
): OcrWord {
  if (!spent(budget, folded)) return word;
  const near =
    only(lettersAway(folded, dictionary, (letter) => PERSIAN_MARK_LOST[letter] ?? '')) ??
    only(lettersAway(folded, dictionary, (letter) => SAME_STROKE.find((g) => g.includes(letter)) ?? '')) ??
    // No word of the dictionary a dot away: a food misread in more of its dots ("کوسقتدی").
    foods?.misreadFood(folded);
  return near ? confirmed({ ...word, text: before + near + after }, folded, CORRECTED) : word;
}

/** Dictionary words with one letter of `folded` replaced by one `others` gives for it. */
function lettersAway(
  folded: string,
  dictionary: HunspellDictionary,
  others: (letter: string) => string,
): DictionaryWord[] {
  const found = new Map<string, DictionaryWord>();
  [...folded].forEach((letter, i) => {
    for (const other of others(letter)) {
      if (other === letter) continue;
      for (const candidate of dictionary.wordsFolding(folded.slice(0, i) + other + folded.slice(i + 1)))
        found.set(candidate.word, candidate);
    }
  });
  return [...found.values()];
}

/**
 * A word the dictionary holds is likelier right than tesseract's doubt about a display face says;
 * short words are not raised (OCR makes "Ee", "de" of any texture).
 */
function confirmed(word: OcrWord, folded: string, least: number): OcrWord {
  if (folded.length < MIN_CONFIRMED_LETTERS || word.confidence >= least) return word;
  return { ...word, confidence: least };
}

/** The one word among candidates, preferring a stem as listed over an inflected form. */
function only(candidates: readonly DictionaryWord[]): string | undefined {
  const stems = candidates.filter((c) => c.stem);
  if (stems.length === 1) return stems[0]!.word;
  if (stems.length === 0 && candidates.length === 1) return candidates[0]!.word;
  return undefined;
}

/**
 * The one food among words the dictionary holds a letter away, in the food vocabulary's spelling:
 * a grocery flyer's "Aimpim" is "aipim" (cassava) rather than "pimpim".
 */
function onlyFood(candidates: readonly DictionaryWord[], preferred: PreferredSpellings): string | undefined {
  const foods = new Set(candidates.flatMap((c) => preferred.spelling(fold(c.word)) ?? []));
  return foods.size === 1 ? [...foods][0] : undefined;
}

/** Dictionary words one deletion, insertion, substitution or swap away from `folded`. */
function oneLetterAway(folded: string, dictionary: HunspellDictionary): DictionaryWord[] {
  const found = new Map<string, DictionaryWord>();
  for (const edit of oneLetterEdits(folded)) {
    for (const candidate of dictionary.wordsFolding(edit)) {
      const seen = found.get(candidate.word);
      if (!seen || (candidate.stem && !seen.stem)) found.set(candidate.word, candidate);
    }
  }
  return [...found.values()];
}

/** Every spelling one deletion, insertion, substitution or swap of a letter away from `folded`. */
function oneLetterEdits(folded: string): Set<string> {
  const edits = new Set<string>();
  for (let i = 0; i <= folded.length; i += 1) {
    const head = folded.slice(0, i);
    const tail = folded.slice(i);
    if (tail) edits.add(head + tail.slice(1));
    if (tail.length > 1) edits.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const letter of FOLDED_LETTERS) {
      edits.add(head + letter + tail);
      if (tail) edits.add(head + letter + tail.slice(1));
    }
  }
  edits.delete(folded);
  return edits;
}

/** `word` written in the case `model` was printed in: "ACEM" → "ACÉM", "Perola" → "Pérola". */
function inCaseOf(model: string, word: string): string {
  if (model === model.toUpperCase()) return word.toUpperCase();
  if (model[0] === model[0]!.toUpperCase()) return word[0]!.toUpperCase() + word.slice(1);
  return word;
}

/** "Brancakg" as two words, "Branca" and "kg", each over its share of the box. */
function splitWord(word: OcrWord, before: string, [first, second]: [string, string], after = ''): OcrWord[] {
  const head = before + first;
  const tail = second + after;
  const share = head.length / (head.length + tail.length);
  return [
    { ...word, text: head, width: word.width * share },
    { ...word, text: tail, x: word.x + word.width * share, width: word.width * (1 - share) },
  ];
}

/** Shortest words a glued pair is split into. */
const MIN_GLUED_LETTERS = 3;

/**
 * Two words OCR read without the space between them, the dictionary holding neither whole but
 * both halves: at a capital after small letters ("VerdeRepolho"), or at an "l" that is a capital I
 * misread ("Maçãlmportada": "Maçã" "Importada"). Only where exactly one place splits so.
 */
function gluedWords(core: string, dictionary: HunspellDictionary): [string, string] | undefined {
  const known = (part: string) => dictionary.wordsFolding(fold(part)).length > 0;
  let found: [string, string] | undefined;
  for (let i = MIN_GLUED_LETTERS; i <= core.length - MIN_GLUED_LETTERS - 1; i += 1) {
    const letter = core[i]!;
    if (!/\p{Ll}/u.test(core[i - 1]!)) continue;
    const second =
      letter === 'l' ? `I${core.slice(i + 1)}` : /\p{Lu}/u.test(letter) ? core.slice(i) : undefined;
    if (!second || !/^\p{Lu}\p{Ll}+$/u.test(second)) continue;
    const first = core.slice(0, i);
    if (!known(first) || !known(second)) continue;
    if (found) return undefined;
    found = [first, second];
  }
  return found;
}
