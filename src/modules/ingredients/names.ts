import type { IngredientInfo } from './contract.ts';

/**
 * Lower case, no accents or ligatures, single spaces, no surrounding punctuation, no elided
 * articles: "Jalapeño  Peppers." → "jalapeno peppers", "gousse d’ail" → "gousse ail", "Œuf" → "oeuf".
 */
export function normalizeName(text: string): string {
  return text
    .replace(/[œŒ]/g, 'oe')
    .replace(/[æÆ]/g, 'ae')
    .replace(/ß/g, 'ss')
    .replace(/[øØ]/g, 'o')
    .replace(/[łŁ]/g, 'l')
    .replace(/[đĐ]/g, 'd')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/\b(?:d|l|dell|dall|all|nell|sull|un|qu)'(?=\p{L})/gu, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '');
}

/**
 * Singular and plural forms of the last word, most likely first. English plurals only, by
 * spelling rules (berries/berry, tomatoes/tomato, leaves/leaf, dishes/dish, eggs/egg).
 */
export function numberVariants(name: string): string[] {
  const m = /^(.*?)([a-z']+)$/.exec(name);
  if (!m) return [];
  const head = m[1] ?? '';
  const word = m[2] ?? '';
  const forms: string[] = [];
  if (word.endsWith('ies') && word.length > 4) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('ves')) forms.push(`${word.slice(0, -3)}f`, `${word.slice(0, -3)}fe`);
  if (/(oes|ches|shes|sses|xes|zes)$/.test(word)) forms.push(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss') && word.length > 2) forms.push(word.slice(0, -1));
  if (!word.endsWith('s')) {
    if (/[^aeiou]y$/.test(word)) forms.push(`${word.slice(0, -1)}ies`);
    if (/(o|ch|sh|x|z)$/.test(word)) forms.push(`${word}es`);
    forms.push(`${word}s`);
  }
  forms.push(...otherLanguageSingulars(word));
  return forms.map((f) => head + f).filter((f) => f !== name);
}

/**
 * Singulars by the regular plural endings of German, Dutch, French, Spanish, Italian and
 * Portuguese (Zwiebeln → Zwiebel, Eier → Ei, choux → chou, limones → limon, cipolle → cipolla,
 * pomodori → pomodoro, limões → limão). Tried after the English forms; irregular plurals are
 * aliases. Short words are left alone: their endings are too often the word itself.
 */
function otherLanguageSingulars(word: string): string[] {
  if (word.length < 5) return word === 'eier' ? ['ei'] : [];
  const forms: string[] = [];
  const cut = (n: number, add = '') => forms.push(word.slice(0, -n) + add);
  if (word.endsWith('en')) cut(2);
  if (word.endsWith('n')) cut(1);
  if (word.endsWith('er')) cut(2);
  if (word.endsWith('e')) cut(1);
  if (word.endsWith('x')) cut(1);
  if (word.endsWith('es')) cut(2);
  if (word.endsWith('oes')) cut(3, 'ao');
  if (word.endsWith('aes')) cut(3, 'ao');
  if (word.endsWith('chi') || word.endsWith('ghi')) cut(1, 'o');
  if (word.endsWith('i')) forms.push(word.slice(0, -1) + 'o', word.slice(0, -1) + 'e');
  // Italian feminine plurals (cipolle, zucchine, patate, pesche); not "paste", an English word.
  if (/(?:ll|in|an|ol|at|et|ot|zz)e$/.test(word)) cut(1, 'a');
  if (/[cg]he$/.test(word)) cut(2, 'a');
  if (word.endsWith('a')) cut(1, 'o');
  return forms;
}

/** A word without its plural ending, for word-set matching ("peppers" → "pepper"). */
export function wordStem(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(oes|ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && word.length > 3) return word.slice(0, -1);
  return word;
}

const wordsOf = (text: string) =>
  normalizeName(text)
    .split(/[\s-]+/)
    .filter(Boolean)
    .map(wordStem);

/** A compound's head that only says how the food is cut ("Pompoenblokjes", "Apfelscheiben"). */
const SHAPE_HEAD =
  /(?<=.{4})(?:blokjes|stukjes|plakjes|reepjes|schijfjes|wurfel|stucke|stuckchen|scheiben|streifen|ringe)$/;

/** Name and alias lookup over a set of ingredients. A name beats an alias; the lower id wins ties. */
export class NameIndex {
  readonly #byName = new Map<string, IngredientInfo>();
  readonly #byAlias = new Map<string, IngredientInfo>();
  readonly #byWord = new Map<string, IngredientInfo[]>();

  constructor(ingredients: readonly IngredientInfo[]) {
    const byId = [...ingredients].sort((a, b) => a.id - b.id);
    for (const ing of byId) {
      const name = normalizeName(ing.name);
      if (!this.#byName.has(name)) this.#byName.set(name, ing);
    }
    for (const ing of byId) {
      for (const alias of ing.aliases) {
        const key = normalizeName(alias);
        if (!this.#byAlias.has(key)) this.#byAlias.set(key, ing);
      }
      for (const word of new Set(wordsOf(ing.name))) {
        const list = this.#byWord.get(word) ?? [];
        list.push(ing);
        this.#byWord.set(word, list);
      }
    }
  }

  /**
   * Last resort for a phrase no name or alias spells: the ingredient with the shortest name that
   * contains every word of it ("bell pepper" → "red bell pepper", "beef" → "ground beef").
   */
  containingAllWords(text: string): IngredientInfo | undefined {
    const words = [...new Set(wordsOf(text))];
    if (words.length === 0) return undefined;
    let candidates = this.#byWord.get(words[0]!) ?? [];
    for (const word of words.slice(1)) {
      const next = new Set(this.#byWord.get(word) ?? []);
      candidates = candidates.filter((c) => next.has(c));
    }
    let best: IngredientInfo | undefined;
    for (const c of candidates) {
      if (!best || c.name.length < best.name.length) best = c; // ids ascend: ties keep the lower id
    }
    return best;
  }

  /**
   * German and Dutch write compounds as one word with the head last ("Weizenmehl" is a flour,
   * "Rinderhackfleisch" minced meat): the longest known name the word ends with, of at least four
   * letters, after a modifier of at least three.
   */
  compoundHead(word: string): IngredientInfo | undefined {
    const key = normalizeName(word).replace(SHAPE_HEAD, '');
    if (key.includes(' ') || key.length < 4) return undefined;
    const whole =
      this.exact(key) ??
      numberVariants(key)
        .map((v) => this.exact(v))
        .find(Boolean);
    if (whole) return whole;
    for (let start = 3; start <= key.length - 4; start += 1) {
      const head = key.slice(start);
      const forms = [head, ...numberVariants(head)].filter((f) => f.length >= 4);
      const hit = forms.map((f) => this.exact(f)).find(Boolean);
      if (hit) return hit;
    }
    return undefined;
  }

  /** Exact name or alias, case- and accent-insensitive. */
  exact(text: string): IngredientInfo | undefined {
    const key = normalizeName(text);
    return this.#byName.get(key) ?? this.#byAlias.get(key);
  }

  /** Exact, then with "-" read as a space, then the other grammatical number of the last word. */
  resolve(text: string): IngredientInfo | undefined {
    const key = normalizeName(text);
    if (!key) return undefined;
    const spaced = key.replace(/-/g, ' ');
    for (const candidate of [key, spaced, ...numberVariants(key), ...numberVariants(spaced)]) {
      const hit = this.exact(candidate);
      if (hit) return hit;
    }
    return undefined;
  }
}
