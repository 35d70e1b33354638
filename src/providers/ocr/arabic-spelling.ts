import { inPersianForms, SAME_STROKE } from './arabic-letters.ts';
import { fold } from './hunspell.ts';
import type { OcrWord } from './ocr.ts';

/** Persian's marked letters, which the Arabic-trained strokes lose most (جای for چای). */
const PERSIAN_MARKED = /[پچژگ]/u;
/** The short strokes ("teeth") of ب ت ث ن ی, which OCR merges into the next letter's. */
const TEETH = 'بتثنی';
/** Dot-group guesses on shorter words would turn common words into foods (بین → تین). */
const MIN_SUBSTITUTED_LETTERS = 4;
const MIN_LETTERS = 3;
/** Final letters whose tail below the line is a dotless final yeh's too ("بسمتر" for "بسمتي"). */
const FINAL_TAILS = 'رز';
/** A hostile picture's endless "word" is not looked for among the foods (its work grows with its length squared). */
const MAX_LETTERS = 24;
/**
 * Letters that never join the next one (ا د ذ ر ز ژ و and alef's forms): after them a word's end and
 * the gap before the next letter look alike, so OCR may read two words as one ("پنیرلیقوان").
 */
const NON_JOINING = 'اأإآدذرزژوؤ';

/**
 * The key a word is looked up by: case and marks folded (أ إ آ → ا), and the letters Arabic and
 * Persian write each their way, or OCR mixes freely, made one (ي ى → ی, ك → ک, ة → ه).
 */
export function arabicScriptKey(text: string): string {
  return inPersianForms(fold(text))
    .replace(/ة/gu, 'ه')
    .replace(/\u200c/gu, '');
}

/**
 * The food vocabulary of an Arabic-script language, for OCR's words of a flyer in it: a word that
 * is a food but for a hamza, a ta marbuta or a yeh OCR wrote its way ("آرز", "لبنه") takes the
 * vocabulary's spelling, and a word that is not one becomes the one food a misread dot away
 * ("جای" → "چای", tea, although "جای" is also a word: on a grocery flyer the food wins).
 */
export class ArabicScriptFoods {
  readonly #byKey = new Map<string, string | null>();
  /** The foods' keys by their length in letters, for the search several misread letters away. */
  readonly #keysByLength = new Map<number, { key: string; letters: string[] }[]>();

  constructor(words: Iterable<string>) {
    for (const word of words) {
      const key = arabicScriptKey(word);
      if (key.length < MIN_LETTERS) continue;
      const seen = this.#byKey.get(key);
      this.#byKey.set(key, seen === undefined || seen === word ? word : null);
    }
    for (const key of this.#byKey.keys()) {
      const letters = [...key];
      const sameLength = this.#keysByLength.get(letters.length) ?? [];
      if (sameLength.length === 0) this.#keysByLength.set(letters.length, sameLength);
      sameLength.push({ key, letters });
    }
  }

  /**
   * The one food nearest a word OCR misread in several letters, if it is near enough: letters of
   * one stroke told apart by their dots ("کوسقتدی" for "گوسفندی": three dots misread) and a tooth
   * lost count half a letter; a word of 5 letters or more, at most three such misreadings from the
   * food, and no other food as near. For words no dictionary holds.
   */
  misreadFood(word: string): string | undefined {
    const key = arabicScriptKey(word);
    const letters = [...key];
    if (letters.length < MIN_MISREAD_LETTERS || letters.length > MAX_LETTERS) return undefined;
    let best = Infinity;
    let found: string | null = null;
    // A tooth lost at most: a longer food would be a word that merely shares letters ("آسمان", sky,
    // is no "باسماتی").
    for (let length = letters.length; length <= letters.length + 1; length += 1) {
      for (const food of this.#keysByLength.get(length) ?? []) {
        // Costs are multiples of a half: a tie with the best is still measured exactly.
        const cost = misreadCost(letters, food.letters, Math.min(best, MAX_MISREAD_COST) + 0.25);
        if (cost > MAX_MISREAD_COST) continue;
        if (cost < best) [best, found] = [cost, this.#byKey.get(food.key) ?? null];
        else if (cost === best) found = null;
      }
    }
    return found ?? undefined;
  }

  get size(): number {
    return this.#byKey.size;
  }

  /** The food `word` is, or the one food it is a misread letter away from; undefined otherwise. */
  spelling(word: string): string | undefined {
    const key = arabicScriptKey(word);
    if (key.length < MIN_LETTERS || key.length > MAX_LETTERS) return undefined;
    const exact = this.#byKey.get(key);
    if (exact !== undefined) return exact ?? undefined;
    const near = new Set<string>();
    const letters = [...key];
    letters.forEach((letter, i) => {
      const last = i === letters.length - 1;
      for (const other of this.#standIns(letter, letters.length, last)) {
        const food = this.#byKey.get([...letters.slice(0, i), other, ...letters.slice(i + 1)].join(''));
        if (food) near.add(food);
      }
    });
    // A stray upright stroke before the word (a tile's edge, a bar) read as an alef ("اخرما"): an
    // alef joins no letter after it, so OCR glues it on. Only where the rest is a food as read.
    const unglued = letters[0] === 'ا' ? this.#byKey.get(letters.slice(1).join('')) : undefined;
    if (unglued && letters.length > MIN_LETTERS) near.add(unglued);
    // A tooth merged into its neighbour ("بسمي" for "بسمتي"): on longer words only.
    if (near.size === 0 && letters.length >= MIN_SUBSTITUTED_LETTERS) {
      for (let i = 1; i < letters.length; i += 1) {
        for (const tooth of TEETH) {
          const food = this.#byKey.get([...letters.slice(0, i), tooth, ...letters.slice(i)].join(''));
          if (food) near.add(food);
        }
      }
    }
    return near.size === 1 ? [...near][0] : undefined;
  }

  /**
   * Two foods OCR read as one word, split where the first ends in a letter that does not join
   * ("پنیرلیقوان" → "پنیر لیقوان"): only when each part is a food as read and one split gives that.
   */
  joined(word: string): string | undefined {
    const letters = [...word];
    if (letters.length < 2 * MIN_LETTERS || letters.length > MAX_LETTERS) return undefined;
    const splits: string[] = [];
    for (let i = MIN_LETTERS; i <= letters.length - MIN_LETTERS; i += 1) {
      if (!NON_JOINING.includes(letters[i - 1]!)) continue;
      const first = this.#byKey.get(arabicScriptKey(letters.slice(0, i).join('')));
      const second = this.#byKey.get(arabicScriptKey(letters.slice(i).join('')));
      if (first && second) splits.push(`${first} ${second}`);
    }
    return splits.length === 1 ? splits[0] : undefined;
  }

  /**
   * The letters a read one may stand for: all of its stroke's on long words, Persian's marked ones
   * on any; and at a long word's end, the yeh whose tail OCR read as a reh once it lost its dots.
   */
  #standIns(letter: string, length: number, last: boolean): string[] {
    const group = SAME_STROKE.find((g) => g.includes(letter)) ?? '';
    const sameStroke = [...group].filter(
      (other) => other !== letter && (length >= MIN_SUBSTITUTED_LETTERS || PERSIAN_MARKED.test(other)),
    );
    return last && length >= MIN_SUBSTITUTED_LETTERS && FINAL_TAILS.includes(letter)
      ? [...sameStroke, 'ی']
      : sameStroke;
  }
}

const MAX_MISREAD_COST = 1.5;
const OTHER_MISREAD = 2;
/** Shorter words are near too many foods at that cost ("پارس", a store's name, from "نارس"). */
const MIN_MISREAD_LETTERS = 5;

/** Letters of one stroke, told apart by their dots. */
const sameStroke = (a: string, b: string) =>
  SAME_STROKE.some((group) => group.includes(a) && group.includes(b));

/**
 * What reading `read` for `printed` costs (weighted edit distance): a dot misread or a tooth lost
 * half a letter, any other letter missed, added or misread two (more than a search allows: only
 * dots and teeth are OCR's usual misreadings of a long word); `limit` once it cannot be less.
 */
function misreadCost(read: readonly string[], printed: readonly string[], limit: number): number {
  const lost = (letter: string) => (TEETH.includes(letter) ? 0.5 : OTHER_MISREAD);
  let previous = [0];
  for (let j = 1; j <= printed.length; j += 1) previous.push(previous[j - 1]! + lost(printed[j - 1]!));
  for (let i = 1; i <= read.length; i += 1) {
    const row = [previous[0]! + OTHER_MISREAD];
    for (let j = 1; j <= printed.length; j += 1) {
      const [a, b] = [read[i - 1]!, printed[j - 1]!];
      const swap = a === b ? 0 : sameStroke(a, b) ? 0.5 : OTHER_MISREAD;
      row.push(Math.min(previous[j - 1]! + swap, previous[j]! + OTHER_MISREAD, row[j - 1]! + lost(b)));
    }
    if (Math.min(...row) >= limit) return limit;
    previous = row;
  }
  return previous[printed.length]!;
}

/** An Arabic-script word of OCR in its food's spelling, when the vocabulary has one for it. */
export function spelledAsFood(word: OcrWord, foods: ArabicScriptFoods): OcrWord | undefined {
  const parts = /^([^\p{L}\d]*)([\p{Script=Arabic}\u200c]+)([^\p{L}\d]*)$/u.exec(word.text);
  if (!parts) return undefined;
  const [, before, read, after] = parts as unknown as [string, string, string, string];
  const food = foods.spelling(read) ?? foods.joined(read);
  if (!food) return undefined;
  const exact = arabicScriptKey(food) === arabicScriptKey(read);
  // A food the flyer printed is likelier right than OCR's doubt says; one a dot away a little less.
  const confidence = Math.max(word.confidence, exact ? FOOD_AS_READ : FOOD_A_DOT_AWAY);
  return { ...word, text: before + food + after, confidence };
}

const FOOD_AS_READ = 0.85;
const FOOD_A_DOT_AWAY = 0.7;

/**
 * The food `read` is but for the mark of one Persian letter OCR lost ("جای" for "چای"), if one:
 * the one food of `foods.spelling` whose letters differ from the word's only there.
 */
export function foodWithLostMark(read: string, foods: ArabicScriptFoods): string | undefined {
  const food = foods.spelling(read);
  if (!food) return undefined;
  const [have, want] = [[...arabicScriptKey(read)], [...arabicScriptKey(food)]];
  if (have.length !== want.length) return undefined;
  const differing = want.flatMap((letter, i) => (letter === have[i] ? [] : [letter]));
  return differing.length === 1 && PERSIAN_MARKED.test(differing[0]!) ? food : undefined;
}
