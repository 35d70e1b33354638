import type { IngredientInfo } from './contract.ts';

/**
 * Units and conversions (pure). US customary volumes: the recipe sources and USDA portion weights
 * use them. Canonical unit names: weight g/kg/mg/oz/lb; volume ml/l/tsp/tbsp/cup/fl oz/pint/quart/
 * gallon/pinch/dash; "piece"; and named measures (clove, can, slice, ...) whose weight each
 * ingredient gives in `measures`.
 */

/** Grams per unit. */
export const WEIGHT_UNITS: Readonly<Record<string, number>> = {
  mg: 0.001,
  g: 1,
  kg: 1000,
  oz: 28.3495,
  lb: 453.592,
};

/** Millilitres per unit. A pinch is 1/16 tsp and a dash 1/8 tsp (US kitchen convention). */
export const VOLUME_UNITS: Readonly<Record<string, number>> = {
  ml: 1,
  cl: 10,
  dl: 100,
  l: 1000,
  tsp: 4.929,
  tbsp: 14.787,
  'fl oz': 29.574,
  cup: 236.588,
  pint: 473.176,
  quart: 946.353,
  gallon: 3785.41,
  pinch: 4.929 / 16,
  dash: 4.929 / 8,
  dessertspoon: 10,
};

/** Named measures whose weight is per ingredient (its `measures`, sizes falling back to a piece). */
export const MEASURE_UNITS = [
  'clove',
  'can',
  'slice',
  'bunch',
  'stick',
  'sprig',
  'leaf',
  'fillet',
  'head',
  'sheet',
  'block',
  'wedge',
  'cube',
  'bottle',
  'thumb',
  'thigh',
  'stalk',
  'square',
  'package',
  'jar',
  'glass',
  'loaf',
  'rasher',
  'spear',
  'shot',
  'sachet',
  'packet',
  'pack',
  'pat',
  'tail',
  'floret',
  'envelope',
  'cutlet',
  'crust',
  'clam',
  'carton',
  'cake',
  'bulb',
  'breast',
  'bar',
  'bag',
  'handful',
  'knob',
  'ear',
  'rib',
  'strip',
  'link',
  'piece',
  'small',
  'medium',
  'large',
  'extra large',
  'jumbo',
  'box',
  'tin',
  'container',
  'scoop',
  'drop',
  'sprinkle',
  'dollop',
  'round',
  'sleeve',
  'tub',
  'pot',
] as const;

const SIZE_MEASURES = new Set(['small', 'medium', 'large', 'extra large', 'jumbo']);

/** Spelled-out and abbreviated forms → canonical name (keys lower case, no trailing dot). */
const SYNONYMS: Readonly<Record<string, string>> = {
  gram: 'g',
  grams: 'g',
  gramme: 'g',
  grammes: 'g',
  gr: 'g',
  grs: 'g',
  gm: 'g',
  gms: 'g',
  kilogram: 'kg',
  kilograms: 'kg',
  kilo: 'kg',
  kilos: 'kg',
  kgs: 'kg',
  milligram: 'mg',
  milligrams: 'mg',
  ounce: 'oz',
  ounces: 'oz',
  ozs: 'oz',
  pound: 'lb',
  pounds: 'lb',
  lbs: 'lb',
  millilitre: 'ml',
  millilitres: 'ml',
  milliliter: 'ml',
  milliliters: 'ml',
  mls: 'ml',
  centilitre: 'cl',
  centiliter: 'cl',
  decilitre: 'dl',
  deciliter: 'dl',
  litre: 'l',
  litres: 'l',
  liter: 'l',
  liters: 'l',
  ltr: 'l',
  teaspoon: 'tsp',
  teaspoons: 'tsp',
  tsps: 'tsp',
  tspn: 'tsp',
  ts: 'tsp',
  tablespoon: 'tbsp',
  tablespoons: 'tbsp',
  tbsps: 'tbsp',
  tbs: 'tbsp',
  tbl: 'tbsp',
  tbls: 'tbsp',
  tblsp: 'tbsp',
  cups: 'cup',
  c: 'cup',
  'fluid ounce': 'fl oz',
  'fluid ounces': 'fl oz',
  'fl. oz': 'fl oz',
  floz: 'fl oz',
  'fl ozs': 'fl oz',
  pints: 'pint',
  pt: 'pint',
  quarts: 'quart',
  qt: 'quart',
  gallons: 'gallon',
  gal: 'gallon',
  pinches: 'pinch',
  dashes: 'dash',
  pieces: 'piece',
  pc: 'piece',
  pcs: 'piece',
  whole: 'piece',
  each: 'piece',
  ea: 'piece',
  unit: 'piece',
  units: 'piece',
  leaves: 'leaf',
  loaves: 'loaf',
  'extra-large': 'extra large',
  xl: 'extra large',
  pkg: 'package',
  pkgs: 'package',
  packages: 'package',
  packets: 'packet',
  packs: 'pack',
  lg: 'large',
  med: 'medium',
  sm: 'small',
  lt: 'l',
  spoon: 'tbsp',
  spoons: 'tbsp',
  spoonful: 'tbsp',
  spoonfuls: 'tbsp',
  tablespoonful: 'tbsp',
  tablespoonfuls: 'tbsp',
  'table-spoonful': 'tbsp',
  teaspoonful: 'tsp',
  teaspoonfuls: 'tsp',
  'tea-spoonful': 'tsp',
  handfull: 'handful',
  handfuls: 'handful',
  count: 'piece',
  dessertspoons: 'dessertspoon',
  dsp: 'dessertspoon',
  ...unitWords({
    // German, Dutch, French, Spanish, Italian, Portuguese, Swedish, Hungarian and Slovak/Czech
    // kitchen measures, written without accents (keys are compared accent-free).
    tbsp: 'el essloffel essloffeln eetlepel eetlepels cuillere cuilleres cas cs cuil cucharada cucharadas cda cdas cucharon cucchiaio cucchiai colher colheres msk ek evokanal lyzica lyzice polievkova',
    tsp: 'tl teeloffel teeloffeln theelepel theelepels cac cc cucharadita cucharaditas cdta cdtas cdita cditas cucchiaino cucchiaini tsk tk kk kavekanal teaskanal lyzicka lyzicky',
    pinch:
      'prise prisen msp messerspitze snufje snuf pincee pincees pizca pizcas pizzico pizzichi pitada pitadas nypa csipet stipka',
    piece:
      'stuck stk stck stuks stuk morceau morceaux unidad unidades ud uds pezzo pezzi unidade unidades st db ks',
    bunch: 'bund bundel bos bosje botte bottes manojo manojos mazzetto mazzo grappolo maco macos',
    can: 'dose dosen blik blikje boite boites lata latas lattina lattine scatola scatole burk konzerva',
    clove:
      'zehe zehen teen teentje teentjes tenen gousse gousses diente dientes spicchio spicchi dente dentes klyfta klyftor gerezd strucik struciky',
    slice:
      'scheibe scheiben plak plakken plakje plakjes tranche tranches rebanada rebanadas loncha lonchas rodaja rodajas fetta fette fatia fatias skiva skivor szelet platok',
    cup: 'tasse tassen kopje kopjes kop tasses taza tazas tazza tazze xicara xicaras chavena chavenas bogre hrncek',
    package:
      'packung packungen pck pckg pkt packchen pak pakje paquet paquets paquete paquetes confezione pacote pacotes paket csomag balenie',
    sachet: 'beutel tutje zakje zakjes sobre sobres bustina bustine saqueta',
    sprig:
      'zweig zweige stiel stiele takje takjes brin brins ramita ramitas rametto rametti ciuffo ciuffi raminho raminhos kvist',
    leaf: 'blatt blatter blaadje blaadjes blad feuille feuilles hoja hojas foglia foglie folha folhas lapok',
    handful:
      'handvoll handje handvol poignee poignees punado punados manciata manciate punhado punhados hrst',
    glass: 'glas glaser verre verres vaso vasos bicchiere bicchieri copo copos pohar',
    dash: 'spritzer schuss scheutje scheut trait chorrito chorro goccio spruzzo fio skvatt',
    cube: 'wurfel blokje blokjes cubito cubitos kostka',
    stalk: 'stange stangen stengel stengels branche branches tallo tallos gambo gambi talo talos',
    head: 'kopf krop tete cabeza cespo cabeca',
    drop: 'tropfen druppel druppels goutte gouttes gota gotas goccia gocce',
    tub: 'becher bakje tarrina vasetto',
    l: 'liter litro litros litri',
    kg: 'kilo kilos kilogramm chilo quilo quilos',
    g: 'gramm gramos gramo grammi grammo grama gramas',
    ml: 'milliliter mililitro mililitros millilitri krm',
    dl: 'deciliter',
    cl: 'zentiliter centilitre',
  }),
  // Russian and Ukrainian ("сыр пармезан - 75 г", "лимон - 1 шт", "2 ст.л. масла").
  ...unitWords({
    g: 'г гр грамм грамма граммов',
    kg: 'кг килограмм',
    ml: 'мл',
    l: 'л литр литра литров',
    piece: 'шт штук штуки штука',
    tbsp: 'ст.л',
    tsp: 'ч.л',
    cup: 'стакан стакана стаканов склянка склянки',
    clove: 'зубчик зубчика зубчиков',
    bunch: 'пучок пучка',
    pinch: 'щепотка щепотки',
    stalk: 'стебель стебля стеблей',
    slice: 'ломтик ломтика ломтиков',
  }),
};

/** { unit: 'word word …' } → { word: unit }. */
function unitWords(table: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [unit, words] of Object.entries(table)) for (const w of words.split(/\s+/)) out[w] = unit;
  return out;
}

const CANONICAL = new Set<string>([
  ...Object.keys(WEIGHT_UNITS),
  ...Object.keys(VOLUME_UNITS),
  ...MEASURE_UNITS,
]);

/** "Tbsp" → "tbsp", "grams" → "g", "cloves" → "clove", "T" → "tbsp", "t" → "tsp"; undefined if unknown. */
export function normalizeUnit(unit: string): string | undefined {
  const trimmed = unit.trim().replace(/\.$/, '');
  if (trimmed === 'T' || trimmed === 'Tbs' || trimmed === 'TB') return 'tbsp';
  if (trimmed === 't') return 'tsp';
  const key = trimmed
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ');
  if (CANONICAL.has(key)) return key;
  const synonym = SYNONYMS[key];
  if (synonym) return synonym;
  for (const singular of [key.replace(/es$/, ''), key.replace(/s$/, '')]) {
    if (singular !== key && CANONICAL.has(singular)) return singular;
  }
  return undefined;
}

export type UnitKind = 'weight' | 'volume' | 'piece' | 'measure';

export function unitKind(unit: string): UnitKind | undefined {
  const u = normalizeUnit(unit);
  if (u === undefined) return undefined;
  if (u in WEIGHT_UNITS) return 'weight';
  if (u in VOLUME_UNITS) return 'volume';
  return u === 'piece' ? 'piece' : 'measure';
}

/**
 * Grams in one `unit` of this ingredient when that is a counted or named measure: its own
 * `measures` entry first, then for a piece (or a size: small/medium/large) its piece weight.
 */
function gramsPerMeasure(unit: string, ingredient: IngredientInfo | undefined): number | undefined {
  if (!ingredient) return undefined;
  const measured = ingredient.measures[unit];
  if (measured !== undefined && measured > 0) return measured;
  if (unit === 'piece')
    return ingredient.pieceGrams ?? ingredient.measures.whole ?? ingredient.measures.medium ?? undefined;
  if (SIZE_MEASURES.has(unit)) return ingredient.pieceGrams ?? undefined;
  return undefined;
}

/** The amount as grams and/or millilitres, whichever the unit and the ingredient allow. */
function measureOf(
  q: number,
  unit: string,
  ingredient: IngredientInfo | undefined,
): { g?: number; ml?: number } {
  const density = ingredient?.density ?? undefined;
  const weight = WEIGHT_UNITS[unit];
  if (weight !== undefined) {
    const g = q * weight;
    return density ? { g, ml: g / density } : { g };
  }
  const perMeasure = gramsPerMeasure(unit, ingredient);
  if (perMeasure !== undefined) {
    const g = q * perMeasure;
    return density ? { g, ml: g / density } : { g };
  }
  const volume = VOLUME_UNITS[unit];
  if (volume !== undefined) {
    const ml = q * volume;
    return density ? { ml, g: ml * density } : { ml };
  }
  return {};
}

/**
 * `quantity` of `from` expressed in `to`: within weight or volume always; across weight, volume,
 * pieces and named measures through the ingredient's density, piece weight and measures
 * (cup → g → piece chains included). Undefined when a unit is unknown or the link is missing.
 */
export function convertQuantity(
  quantity: number,
  from: string,
  to: string,
  ingredient?: IngredientInfo,
): number | undefined {
  const f = unitFor(from, ingredient);
  const t = unitFor(to, ingredient);
  if (f === undefined || t === undefined || !Number.isFinite(quantity)) return undefined;
  if (f === t) return quantity;
  const amount = measureOf(quantity, f, ingredient);
  const targetWeight = WEIGHT_UNITS[t];
  if (targetWeight !== undefined) return amount.g === undefined ? undefined : amount.g / targetWeight;
  const perMeasure = gramsPerMeasure(t, ingredient);
  if (perMeasure !== undefined) return amount.g === undefined ? undefined : amount.g / perMeasure;
  const targetVolume = VOLUME_UNITS[t];
  if (targetVolume !== undefined) return amount.ml === undefined ? undefined : amount.ml / targetVolume;
  return undefined;
}

/** A known unit, or a measure only this ingredient names ("lemon" of lemon juice). */
function unitFor(unit: string, ingredient: IngredientInfo | undefined): string | undefined {
  const known = normalizeUnit(unit);
  if (known !== undefined) return known;
  const key = unit.trim().toLowerCase();
  return ingredient && ingredient.measures[key] !== undefined ? key : undefined;
}

/** Grams of `quantity unit` of the ingredient (for nutrition); undefined when not convertible. */
export function toGrams(
  quantity: number,
  unit: string,
  ingredient: IngredientInfo | undefined,
): number | undefined {
  return convertQuantity(quantity, unit, 'g', ingredient);
}
