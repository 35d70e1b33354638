/**
 * A Hunspell dictionary read far enough to answer one question: which words of the language fold
 * (lower case, accents dropped) to a given string. Stems and one level of prefix or suffix; no
 * compounds, no affix cross-products. Words are generated on demand, hunspell's way (the suffix a
 * word ends with names the rules that may have made it), so a 300,000-stem dictionary costs its
 * stems in memory, not its millions of inflected forms.
 */

/** Lower case, accents, cedillas and ligatures undone: "Pérola" → "perola", "Bœuf" → "boeuf". */
export function fold(text: string): string {
  return text.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/œ/g, 'oe').replace(/æ/g, 'ae');
}

interface Affix {
  flag: string;
  strip: string;
  add: string;
  /** `add` folded: the key rules are found by. */
  foldedAdd: string;
  foldedStrip: string;
  condition: RegExp;
}

/** A word the dictionary holds, and whether it is a stem as listed (no affix added). */
export interface DictionaryWord {
  word: string;
  stem: boolean;
}

const NOT_ALONE = ['NEEDAFFIX', 'ONLYINCOMPOUND', 'FORBIDDENWORD'] as const;

export class HunspellDictionary {
  /**
   * Folded stem → its stems, each "stem\0flags" (flags recoded to one character each), joined by
   * \u0001; a lone stem that is its own folded form is stored as its flags alone (most of them:
   * memory; flag strings are shared).
   */
  readonly #stems = new Map<string, string>();
  readonly #suffixes = new Map<string, Affix[]>();
  readonly #prefixes = new Map<string, Affix[]>();
  /** Flags that keep a stem from being a word by itself. */
  #notAlone = '';

  constructor(aff: string, dic: string) {
    const flags = new FlagCodes(/^FLAG\s+(\S+)/m.exec(aff)?.[1]);
    this.#readAffixes(aff, flags);
    this.#readStems(dic, flags);
  }

  /** The dictionary's words that fold to `folded` (itself folded), lower-cased. */
  wordsFolding(folded: string): DictionaryWord[] {
    const found = new Map<string, boolean>();
    const note = (word: string, stem: boolean) => {
      const lower = word.toLowerCase();
      if (fold(lower) === folded) found.set(lower, (found.get(lower) ?? false) || stem);
    };
    for (const [stem, flags] of this.#entries(folded)) {
      if (![...this.#notAlone].some((f) => flags.includes(f))) note(stem, true);
    }
    for (let i = 0; i <= folded.length; i += 1) {
      for (const rule of this.#suffixes.get(folded.slice(i)) ?? []) {
        for (const stem of this.#stemsWith(folded.slice(0, i) + rule.foldedStrip, rule.flag)) {
          if (stem.endsWith(rule.strip) && rule.condition.test(stem))
            note(stem.slice(0, stem.length - rule.strip.length) + rule.add, false);
        }
      }
      for (const rule of this.#prefixes.get(folded.slice(0, i)) ?? []) {
        for (const stem of this.#stemsWith(rule.foldedStrip + folded.slice(i), rule.flag)) {
          if (stem.startsWith(rule.strip) && rule.condition.test(stem))
            note(rule.add + stem.slice(rule.strip.length), false);
        }
      }
    }
    return [...found].map(([word, stem]) => ({ word, stem }));
  }

  *#stemsWith(folded: string, flag: string): Iterable<string> {
    for (const [stem, flags] of this.#entries(folded)) if (flags.includes(flag)) yield stem;
  }

  *#entries(folded: string): Iterable<[stem: string, flags: string]> {
    const stored = this.#stems.get(folded);
    if (stored === undefined) return;
    if (!stored.includes('\0')) {
      yield [folded, stored];
      return;
    }
    for (const entry of stored.split('\u0001')) {
      const cut = entry.indexOf('\0');
      yield [entry.slice(0, cut), entry.slice(cut + 1)];
    }
  }

  #readAffixes(aff: string, flags: FlagCodes): void {
    for (const line of aff.split('\n')) {
      const parts = line.trim().split(/\s+/);
      const [kind, flag] = parts;
      if (NOT_ALONE.includes(kind as (typeof NOT_ALONE)[number]) && flag) this.#notAlone += flags.code(flag);
      if ((kind !== 'SFX' && kind !== 'PFX') || parts.length < 5 || !flag) continue;
      const [, , stripped, added, condition] = parts as [string, string, string, string, string];
      const strip = stripped === '0' ? '' : stripped;
      const add = (added.split('/')[0] ?? '').replace(/^0$/, '');
      const rule: Affix = {
        flag: flags.code(flag),
        strip,
        add,
        foldedAdd: fold(add),
        foldedStrip: fold(strip),
        condition: conditionPattern(condition, kind === 'SFX'),
      };
      const index = kind === 'SFX' ? this.#suffixes : this.#prefixes;
      const rules = index.get(rule.foldedAdd) ?? [];
      rules.push(rule);
      index.set(rule.foldedAdd, rules);
    }
  }

  #readStems(dic: string, flags: FlagCodes): void {
    let start = dic.indexOf('\n') + 1; // the first line is the stem count
    while (start > 0 && start < dic.length) {
      const end = dic.indexOf('\n', start);
      const line = dic.slice(start, end < 0 ? dic.length : end);
      start = end + 1;
      const field = /^[^\t ]*/.exec(line)![0].trim();
      if (!field) continue;
      const slash = field.search(/(?<!\\)\//);
      const stem = (slash < 0 ? field : field.slice(0, slash)).replace(/\\\//g, '/');
      const codes = slash < 0 ? '' : flags.codes(field.slice(slash + 1));
      const key = /^[a-z]+$/.test(stem) ? stem : fold(stem);
      const stored = this.#stems.get(key);
      if (stored === undefined) this.#stems.set(key, stem === key ? codes : `${stem}\0${codes}`);
      else this.#stems.set(key, `${fullEntry(stored, key)}\u0001${stem}\0${codes}`);
    }
  }
}

/** A stored lone entry written out with its stem (a second stem folds to the same key). */
function fullEntry(stored: string, key: string): string {
  return stored.includes('\0') ? stored : `${key}\0${stored}`;
}

/** An affix condition ("[^aeiou]o", ".") as a pattern on the stem's end (suffix) or start (prefix). */
function conditionPattern(condition: string, suffix: boolean): RegExp {
  if (condition === '.') return /(?:)/u;
  const body = condition.replace(/[.*+?^${}()|\\]/g, (c, offset: number) =>
    c === '^' && condition[offset - 1] === '[' ? c : c === '.' ? '.' : `\\${c}`,
  );
  return new RegExp(suffix ? `${body}$` : `^${body}`, 'u');
}

/**
 * Hunspell writes flags as single characters, pairs of characters ("FLAG long") or numbers ("FLAG
 * num"); each is recoded to one private-use character so that a stem's flags are a plain string.
 */
class FlagCodes {
  readonly #codes = new Map<string, string>();
  readonly #format: string | undefined;

  constructor(format: string | undefined) {
    this.#format = format;
  }

  code(flag: string): string {
    let code = this.#codes.get(flag);
    if (!code) {
      code = String.fromCodePoint(0xf0000 + this.#codes.size);
      this.#codes.set(flag, code);
    }
    return code;
  }

  readonly #fields = new Map<string, string>();

  /** A stem's flags recoded; stems sharing a flag field share the string. */
  codes(field: string): string {
    let codes = this.#fields.get(field);
    if (codes === undefined) {
      codes = this.#recode(field);
      this.#fields.set(field, codes);
    }
    return codes;
  }

  #recode(field: string): string {
    if (this.#format === 'long')
      return (field.match(/[\s\S]{1,2}/gu) ?? []).map((f) => this.code(f)).join('');
    if (this.#format === 'num')
      return field
        .split(',')
        .map((f) => this.code(f.trim()))
        .join('');
    return [...field].map((f) => this.code(f)).join('');
  }
}
