import type { IngredientInfo } from './contract.ts';
import type { NameIndex } from './names.ts';
import { normalizeUnit, unitKind, VOLUME_UNITS, WEIGHT_UNITS } from './units.ts';

/**
 * Free-text ingredient lines ("1 can (29 ounces) tomato puree", "2 cloves garlic, minced",
 * "salt to taste") → quantity, unit and the reference ingredient they name (pure).
 *
 * Decisions: a range ("2-3", "1 or 2") takes its FIRST value (the smaller amount; counted items
 * stay whole). A quantity without a unit is a count ("3 apples" → 3 piece). A container with a
 * parenthesised size ("1 can (29 ounces)", "2 (15 oz) cans") becomes the size times the count
 * (29 oz, 30 oz); any other parenthesised amount ("400g (15 oz)") is an alternative and dropped.
 * "a"/"an"/"one" mean 1; a line with no amount ("salt to taste") has no quantity and no unit.
 */
export interface ParsedIngredientLine {
  quantity: number | undefined;
  unit: string | undefined;
  /** The reference ingredient the text names, when one matches. */
  ingredient: IngredientInfo | undefined;
  /** The ingredient words as written, without amount, unit and notes ("garlic"). */
  name: string;
  /** Preparation and remarks: "minced", "optional", "to taste". */
  notes: string;
  raw: string;
}

const VULGAR: Record<string, string> = {
  '½': '1/2',
  '⅓': '1/3',
  '⅔': '2/3',
  '¼': '1/4',
  '¾': '3/4',
  '⅕': '1/5',
  '⅖': '2/5',
  '⅗': '3/5',
  '⅘': '4/5',
  '⅙': '1/6',
  '⅚': '5/6',
  '⅛': '1/8',
  '⅜': '3/8',
  '⅝': '5/8',
  '⅞': '7/8',
};
const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  dozen: 12,
  half: 0.5,
  couple: 2,
  // German, Dutch, French, Spanish, Italian, Portuguese
  ein: 1,
  eine: 1,
  einen: 1,
  een: 1,
  un: 1,
  une: 1,
  uno: 1,
  una: 1,
  um: 1,
  uma: 1,
  zwei: 2,
  twee: 2,
  deux: 2,
  dos: 2,
  due: 2,
  dois: 2,
  duas: 2,
  drei: 3,
  drie: 3,
  trois: 3,
  tres: 3,
  tre: 3,
  três: 3,
  halbe: 0.5,
  halber: 0.5,
  demi: 0.5,
  demie: 0.5,
  medio: 0.5,
  media: 0.5,
  mezzo: 0.5,
  mezza: 0.5,
  meio: 0.5,
  meia: 0.5,
};
const CONTAINERS = new Set([
  'can',
  'jar',
  'package',
  'packet',
  'pack',
  'bottle',
  'box',
  'bag',
  'carton',
  'tin',
  'container',
  'envelope',
  'sachet',
  'tub',
]);
const APPROXIMATELY =
  /^(?:~|about\b|around\b|approx\.?|approximately\b|roughly\b|circa\b|ca\.|heaping\b|heaped\b|scant\b|generous\b|level\b|etwa\b|ungefähr\b|gestrichener?\b|gehäufter?\b|environ\b|ongeveer\b|aprox\.?|unos\b|unas\b|cerca de\b|circa\b|aproximadamente\b)\s*/i;

/** "of" after an amount, in the languages of our users ("100 g de sucre", "2 cucchiai di miele", "d’ail"). */
const OF = /^(?:(?:of|de|di|del|della|dello|dei|degli|delle|da|do|dos|das|van|von)\s+|d['’]\s*)/i;

/** Words that describe preparation or quality, never the ingredient itself. */
const PREPARATION = new Set(
  (
    'chopped diced minced sliced grated shredded crushed fresh freshly finely roughly coarsely thinly ' +
    'thickly large small medium big extra cubed halved quartered peeled seeded deseeded cored trimmed ' +
    'washed rinsed drained softened melted cold warm hot room temperature lukewarm boiling chilled ' +
    'frozen thawed beaten whisked packed loosely firmly sifted heaping heaped level good quality ' +
    'organic optional ripe fine finely-chopped cut into pieces slices chunks cubes rings strips thin thick ' +
    'about approximately roughly-chopped mashed julienned shaved toasted divided plus more needed ' +
    'taste serving garnish handful leftover whole of and the for to some your choice favorite favourite ' +
    'mixed assorted store-bought homemade good-quality high-quality ' +
    // the same words in German, Dutch, French, Spanish, Italian and Portuguese
    'frisch frische frischer frisches fein feine gehackt gehackte gewürfelt gewürfelte gerieben geriebene ' +
    'geschält geschälte kleine kleiner großer große grosse mittelgroße reife weiche geschmolzene ' +
    'gemahlen gemahlener gemahlene ganze halbiert bio tiefgekühlt etwas ' +
    'vers verse fijn fijngehakt gehakt gesneden gesnipperd geraspt geraspte grote groot middelgrote ' +
    'gekookt gekookte gesmolten zachte rijpe hele flinke ' +
    'frais fraîche fraiche fraîches haché hachée hachés émincé émincée râpé râpée petit petite petits ' +
    'petites gros grosse grande moyen moyenne mûr mûre mûres fondu fondue pelé pelées coupé coupée ' +
    'ciselé ciselée écrasé moulu moulue surgelé surgelées ' +
    'fresco fresca frescos frescas picado picada picados picadas rallado rallada pelado pelada grandes ' +
    'pequeño pequeña mediano mediana maduro madura molido molida troceado cortado cortada ' +
    'freschi fresche tritato tritata grattugiato grattugiata piccolo piccola piccoli maturo matura ' +
    'tagliato tagliata sbucciato tostati tostato tostata ' +
    'picadinho ralado ralada pequeno pequena médio média moído moída'
  ).split(/\s+/),
);

const NOTE_TAIL =
  /\s*(?:\bal gusto\b|\ba gosto\b|\bq\.?\s?b\.?(?=\s|$)|\bquanto basta\b|\bnach (?:belieben|geschmack|bedarf)\b|\baus der mühle\b|\bdu moulin\b|(?<![\p{L}\p{N}])à volonté(?![\p{L}\p{N}])|\bselon (?:votre )?goût\b|(?<![\p{L}\p{N}])по вкусу(?![\p{L}\p{N}])|\bnaar (?:smaak|wens)\b|\bfacultatif\b|\bopcional\b|\bfacoltativo\b|\b(?:zum|zur) (?:servieren|bestreuen|garnieren|dekorieren|anbraten|braten)\b|\bpour (?:servir|décorer|la décoration)\b|\bpara (?:servir|decorar|adornar)\b|\bper (?:servire|decorare|la decorazione)\b|\bom te (?:serveren|garneren)\b|\bto taste\b|\bas needed\b|\bas required\b|\bfor (?:frying|garnish|serving|the|greasing|dusting|decoration|topping|brushing|deep|shallow|drizzling|sprinkling)\b|\bper (?:person|serving|portion)\b|\bif (?:needed|desired|you like)\b|\boptional\b|\bor more\b|\bor less\b|\bplus (?:more|extra)\b).*$/iu;

/** "1", "1.5", "1,5", "1/2", "1 1/2" → number. */
const NUMBER = String.raw`(?:\d+\s+\d+\/\d+|\d+\/\d+|\d+(?:[.,]\d+)?)`;
const QUANTITY = new RegExp(
  String.raw`^(${NUMBER})(?:\s*(?:-|–|—|to|or)\s*(${NUMBER}))?(?=\s|$|[a-zA-Z(])`,
  'i',
);

const ALTERNATIVE = new RegExp(String.raw`^(?:or|\/|=)\s*${NUMBER}\s*([a-z.]+)\s+(?:of\s+)?`, 'i');

function toNumber(text: string): number {
  const t = text.trim().replace(',', '.');
  const mixed = /^(\d+)\s+(\d+)\/(\d+)$/.exec(t);
  if (mixed) return Number(mixed[1]) + Number(mixed[2]) / Number(mixed[3]);
  const fraction = /^(\d+)\/(\d+)$/.exec(t);
  if (fraction) return Number(fraction[2]) === 0 ? Number.NaN : Number(fraction[1]) / Number(fraction[2]);
  return Number(t);
}

/** Unicode fractions, markdown links, bullets and stray symbols out; digits split from units ("400g"). */
function clean(text: string): string {
  // Accents as separate combining marks (NFD: some pages and macOS text) composed, as the patterns spell them.
  // "1Â Tbsp": a no-break space read as Latin-1 by the page's encoder.
  let t = text
    .normalize('NFC')
    .replace(/\u00c2(?=\s)/g, ' ')
    .replace(/^\s*(?:[-*+•]|\d+\.)\s+/, '');
  t = t.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`]/g, '');
  t = t.replace(/⁄/g, '/');
  t = t.replace(
    /(\d)?([½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞])/g,
    (_m, whole: string | undefined, frac: string) => `${whole ? `${whole} ` : ' '}${VULGAR[frac]}`,
  );
  t = t.replace(/(\d)(\p{L})/gu, '$1 $2');
  for (const [pattern, unit] of MULTIWORD_UNITS) t = t.replace(pattern, ` ${unit} `);
  // "Prise(n)", "Zwiebel(n)": a plural ending in brackets.
  t = t.replace(/(\p{L})\((n|en|e|s|es|er)\)/gu, '$1$2');
  // "1 unidade | unidades de cebola": singular | plural, as Brazilian sites write them.
  t = t.replace(/(\p{L}+(?:\s\([^)]*\))?)\s*\|\s*\p{L}+(?:\s\([^)]*\))?/gu, '$1');
  return t.replace(/\s+/g, ' ').trim();
}

/** Measures written in several words, read as one unit word before the single-word units. */
const MULTIWORD_UNITS: [RegExp, string][] = [
  [/\bc(?:uill[eè]res?|uil)?\.?\s*(?:à|a)\.?\s*s(?:oupe)?\b\.?/giu, 'tbsp'],
  [/\bc(?:uill[eè]res?|uil)?\.?\s*(?:à|a)\.?\s*c(?:af[ée])?(?![\p{L}\p{N}])\.?/giu, 'tsp'],
  [/(?<=\d\s*)\bc\.\s?s\.?(?=\s)/giu, 'tbsp'],
  [/(?<=\d\s*)\bc\.\s?c\.?(?=\s)/giu, 'tsp'],
  [/\bcolher(?:es)?\s*\(?\s*(?:de\s+)?sopa\s*\)?/giu, 'tbsp'],
  [/\bcolher(?:es)?\s*\(?\s*(?:de\s+)?ch[áa]\s*\)?/giu, 'tsp'],
  [/\bcolher(?:es)?\s*\(?\s*(?:de\s+)?sobremesa\s*\)?/giu, 'dessertspoon'],
  [/\bx[íi]caras?\s*\(?\s*(?:de\s+)?ch[áa]\s*\)?/giu, 'cup'],
  [/\bcucharas?\s+soperas?\b/giu, 'tbsp'],
  [/\bcucharas?\s+de\s+postre\b/giu, 'dessertspoon'],
  [/\bcucharadas?\s+de\s+caf[ée](?![\p{L}\p{N}])/giu, 'tsp'],
];

/** A unit at the start of `text` (two-word units first), with the rest after an optional "of". */
function takeUnit(text: string): { unit: string; rest: string } | undefined {
  const words = text.split(' ');
  for (const n of [2, 1]) {
    if (words.length < n) continue;
    const written = words.slice(0, n).join(' ');
    const unit = normalizeUnit(written.replace(/[.,/]$/, ''));
    if (!unit) continue;
    const rest = words.slice(n).join(' ').replace(OF, '');
    // "2.5 dl/ 1 cup": keep the slash so that the alternative amount is recognised.
    return { unit, rest: written.endsWith('/') ? `/ ${rest}` : rest };
  }
  return undefined;
}

function takeQuantity(text: string): { quantity: number; rest: string } | undefined {
  const m = QUANTITY.exec(text);
  if (m) {
    const quantity = toNumber(m[1]!);
    if (Number.isFinite(quantity)) return { quantity, rest: text.slice(m[0].length).trim() };
  }
  const word = /^(\p{L}+)\s+(.*)$/iu.exec(text);
  if (word) {
    const key = word[1]!.toLowerCase();
    const value = NUMBER_WORDS[key];
    if (value !== undefined) {
      const rest = word[2]!.replace(/^(?:a|an|of)\s+/i, '');
      return { quantity: value, rest };
    }
  }
  return undefined;
}

/** "(29 ounces)" / "(15 oz each)" → an amount in a weight or volume unit. */
function sizeOf(paren: string): { quantity: number; unit: string } | undefined {
  const inner = paren
    .replace(/^\(|\)$/g, '')
    .replace(APPROXIMATELY, '')
    .replace(/(\d)\s*-\s*([a-z])/gi, '$1 $2')
    .trim();
  const q = takeQuantity(inner);
  if (!q) return undefined;
  const u = takeUnit(q.rest);
  if (!u || !(u.unit in WEIGHT_UNITS || u.unit in VOLUME_UNITS)) return undefined;
  return { quantity: q.quantity, unit: u.unit };
}

const TRAILING = new RegExp(
  String.raw`^(\p{L}[^\d(]*?)\s*[-–:]?\s+(${NUMBER})(?:\s*(\p{L}[\p{L}.]*)(?=[\s,;(+]|$)|(?=\s*(?:[,;(+]|$)))(.*)$`,
  'u',
);

/**
 * The amount after the name, as Italian and other sites write it ("zucchero 130 g", "limoni 4",
 * "panna 750 ml ben fredda"): taken when a unit follows the number or nothing does.
 */
function trailingAmount(text: string): Amount | undefined {
  const m = TRAILING.exec(text);
  // "Zest of 1 orange", "jus de 2 citrons": the number belongs to the phrase, not after a name.
  if (!m || /\b(?:of|de|di|du|des|da|do|von|van|with|from|z)\s*$/i.test(m[1]!)) return undefined;
  const quantity = toNumber(m[2]!);
  if (!Number.isFinite(quantity) || quantity <= 0) return undefined;
  const unitWord = m[3];
  const unit = unitWord ? normalizeUnit(unitWord) : undefined;
  if (unitWord && !unit) return undefined;
  const after = m[4]!.trim();
  return { quantity, unit: unit ?? 'piece', rest: after ? `${m[1]!.trim()}, ${after}` : m[1]!.trim() };
}

interface Amount {
  quantity: number | undefined;
  unit: string | undefined;
  rest: string;
}

function parseAmount(line: string): Amount {
  let text = line;
  while (APPROXIMATELY.test(text)) text = text.replace(APPROXIMATELY, '');
  const q = takeQuantity(text);
  if (!q) {
    // "Pinch of salt", "Handful of basil": a unit word followed by "of" counts as one.
    const lead = /^([a-z]+(?: [a-z]+)?)\s+of\s+(.*)$/i.exec(text);
    const unit = lead ? normalizeUnit(lead[1]!) : undefined;
    if (lead && unit && unitKind(unit) !== 'weight') return { quantity: 1, unit, rest: lead[2]! };
    return trailingAmount(text) ?? { quantity: undefined, unit: undefined, rest: text };
  }
  let quantity = q.quantity;
  let rest = q.rest;
  // "2 (15 oz) cans beans": a size between the count and the unit.
  let size: { quantity: number; unit: string } | undefined;
  const early = /^\([^)]*\)\s*/.exec(rest);
  if (early) {
    size = sizeOf(early[0].trim());
    if (size) rest = rest.slice(early[0].length);
  }
  // "⅓ de xícara (chá) de arroz": "of" between the number and the unit.
  const of = OF.exec(rest);
  if (of && takeUnit(rest.slice(of[0].length))) rest = rest.slice(of[0].length);
  // "1 kl. Bund Petersilie", "1 große Dose": a size before the unit.
  const sized =
    /^(?:kl\.|gr\.|kleine[rs]?|große[rs]?|grosse[rs]?|petite?s?|grande?s?|pequeñ[oa]s?|piccol[oa])\s+(?=\S)/i.exec(
      rest,
    );
  if (sized && takeUnit(rest.slice(sized[0].length))) rest = rest.slice(sized[0].length);
  let u = takeUnit(rest);
  // "8 cloves" with nothing after: the measure word is the ingredient (the spice).
  if (u && !u.rest.trim() && unitKind(u.unit) === 'measure') u = undefined;
  let unit = u?.unit;
  if (u) rest = u.rest;
  const late = /^\([^)]*\)\s*/.exec(rest);
  if (late) {
    const lateSize = sizeOf(late[0].trim());
    const inner = late[0].trim().slice(1, -1).trim();
    // An alternative amount "(15 oz)" or a unit spelled out "(g)" is not part of the name.
    if (lateSize || /^[\d~]/.test(inner) || normalizeUnit(inner)) rest = rest.slice(late[0].length);
    size ??= lateSize;
    if (unit === undefined) {
      const after = takeUnit(rest);
      if (after) ({ unit, rest } = after);
    }
  }
  rest = rest.replace(OF, '');
  // "14 ounces or 400 grams of chicken": the second amount is an alternative.
  const alternative = ALTERNATIVE.exec(rest);
  if (alternative && normalizeUnit(alternative[1]!)) rest = rest.slice(alternative[0].length);
  if (size && (unit === undefined || CONTAINERS.has(unit))) {
    quantity *= size.quantity;
    unit = size.unit;
  }
  return { quantity, unit: unit ?? 'piece', rest: rest.replace(OF, '') };
}

/** Name words and notes: notes after the first comma, parentheses, "to taste"-style tails. */
function splitNotes(text: string): { name: string; notes: string[] } {
  const notes: string[] = [];
  let t = text.replace(/\(([^)]*)\)?/g, (_m, inner: string) => {
    if (inner.trim()) notes.push(inner.trim());
    return ' ';
  });
  // A sentence after the first full stop is commentary ("Appenzeller works best.").
  const stop = /\.\s+[A-Z]/.exec(t);
  if (stop) {
    notes.push(t.slice(stop.index + 1).trim());
    t = t.slice(0, stop.index);
  }
  const comma = t.search(/[,;:]/);
  if (comma >= 0) {
    notes.push(t.slice(comma + 1).trim());
    t = t.slice(0, comma);
  }
  const tail = NOTE_TAIL.exec(t);
  if (tail && tail.index > 0) {
    notes.push(tail[0].trim());
    t = t.slice(0, tail.index);
  } else if (tail) {
    notes.push(t.trim());
    t = '';
  }
  return {
    name: t
      .replace(/[.\s]+$/, '')
      .replace(/\s+/g, ' ')
      .trim(),
    notes: notes.filter(Boolean),
  };
}

/** Spans grow quadratically with the words; ingredient names are short, so a phrase is cut here. */
const MAX_NAME_WORDS = 12;

/** Words that join a Romance name to its complement ("succo di limone", "pimientos de Padrón"). */
const CONNECTORS = new Set(
  "de di du des del della dello delle al alla allo ai au aux à con com do da d' van".split(' '),
);

/**
 * Contiguous word spans, longest first; at equal length the rightmost first (English and German
 * put the head noun last), or the leftmost first when the name is head-first.
 */
function spans(words: readonly string[], headFirst = false): string[] {
  const out: string[] = [];
  for (let len = words.length; len >= 1; len -= 1) {
    const starts = Array.from({ length: words.length - len + 1 }, (_, i) => i);
    for (const start of headFirst ? starts : starts.reverse())
      out.push(words.slice(start, start + len).join(' '));
  }
  return out;
}

/** The reference ingredient a name phrase means: alternatives ("cilantro/coriander", "x or y"), then shorter spans. */
export function matchIngredient(phrase: string, names: NameIndex): IngredientInfo | undefined {
  const alternatives = [
    phrase,
    ...phrase.split(/\s*\/\s*|\s+(?:or|and|oder|und|ou|et|o|y|e|oppure|en)\s+|\s*&\s*/i),
  ].filter((p) => p.trim());
  for (const alt of alternatives) {
    const words = alt
      .toLowerCase()
      .replace(/[’`]/g, "'")
      .replace(/[^\p{L}\p{N}'\- ]/gu, ' ')
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, MAX_NAME_WORDS);
    const kept = words.filter((w) => !PREPARATION.has(w));
    // "Raffinade-Zucker", "semi-zongedroogde tomaten": the parts of a hyphenated word, last.
    const parts = words.some((w) => w.includes('-')) ? kept.flatMap((w) => w.split('-')).filter(Boolean) : [];
    const longest = Math.max(words.length, kept.length, parts.length);
    // "yogurt al limone", "poivron de couleur rouge": a Romance name puts its head first.
    const headFirst = words.some((w) => CONNECTORS.has(w));
    const all = spans(words, headFirst);
    const trimmed = spans(kept, headFirst);
    const split = spans(parts, headFirst);
    for (let len = longest; len >= 1; len -= 1) {
      const ofLength = (list: string[]) => list.filter((s) => s.split(' ').length === len);
      for (const candidate of [...ofLength(all), ...ofLength(trimmed), ...ofLength(split)]) {
        if (len === 1 && PREPARATION.has(candidate)) continue;
        const hit = names.resolve(candidate);
        if (hit) return hit;
      }
    }
  }
  for (const alt of alternatives) {
    const words = alt
      .toLowerCase()
      .replace(/[^\p{L}\p{N}'\- ]/gu, ' ')
      .split(/\s+/)
      .filter((w) => w && !PREPARATION.has(w));
    const hit = words.length > 0 ? names.containingAllWords(words.join(' ')) : undefined;
    if (hit) return hit;
  }
  // A compound word ("Weizenmehl", "olijfolie") names its head last.
  const words = phrase
    .toLowerCase()
    .split(/[^\p{L}']+/u)
    .filter(Boolean)
    .reverse();
  for (const word of words) {
    const hit = names.compoundHead(word);
    if (hit) return hit;
  }
  return undefined;
}

/** The name phrase first; if that fails (a comma split the name: "8 bone-in, skin-on chicken thighs"), the whole text. */
function resolveLine(name: string, rest: string, names: NameIndex): IngredientInfo | undefined {
  const byName = name ? matchIngredient(name, names) : undefined;
  if (byName) return byName;
  const whole = rest
    .replace(/\([^)]*\)?/g, ' ')
    .replace(/[,;:]/g, ' ')
    .replace(NOTE_TAIL, '')
    .trim();
  return whole && whole !== name ? matchIngredient(whole, names) : undefined;
}

export function parseIngredientLine(text: string, names?: NameIndex): ParsedIngredientLine {
  const raw = text;
  const amount = parseAmount(clean(text));
  const { name, notes } = splitNotes(amount.rest);
  return {
    quantity: amount.quantity,
    unit: amount.quantity === undefined ? undefined : amount.unit,
    ingredient: names ? resolveLine(name, amount.rest, names) : undefined,
    name,
    notes: notes.join('; '),
    raw,
  };
}
