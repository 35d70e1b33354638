import type { IngredientInfo } from '../ingredients/contract.ts';

/**
 * A model may name an ingredient the reference table does not know ("cashew cream", "fish sauce").
 * Its allergens and diet facts are then read from keywords, erring on the unsafe side (contract §3:
 * when in doubt a dish is not safe): "rice noodles" counts as wheat. Such an ingredient contributes
 * no nutrition (only reference data does).
 */
interface Rule {
  pattern: RegExp;
  allergens?: string[];
  diet?: string[];
  /** Plant-based look-alikes that do not carry this rule's facts ("coconut milk", "peanut butter"). */
  unless?: RegExp;
}

const PLANT_LOOKALIKE =
  /\b(coconut|almond|oat|soy|soya|rice|cashew|peanut|nut|cocoa|shea|apple|vegan|plant|dairy[- ]free)\b/;

const RULES: Rule[] = [
  { pattern: /peanut|groundnut|satay/, allergens: ['peanuts'] },
  {
    pattern:
      /almond|cashew|walnut|pecan|hazelnut|pistachio|macadamia|brazil nut|pine nut|praline|marzipan|frangipane|gianduja|nutella/,
    allergens: ['tree_nuts'],
  },
  { pattern: /\bnuts?\b|nut butter|mixed nut/, allergens: ['nuts'] },
  {
    pattern:
      /shrimp|prawn|crab|lobster|crayfish|langoustine|scallop|clam|mussel|oyster|squid|calamari|octopus|shellfish/,
    allergens: ['shellfish'],
    diet: ['shellfish'],
  },
  {
    pattern:
      /fish|salmon|tuna|\bcod\b|haddock|anchov|sardine|mackerel|trout|tilapia|halibut|sea bass|snapper|worcestershire|bonito|dashi/,
    allergens: ['fish'],
    diet: ['fish'],
  },
  {
    pattern:
      /milk|cheese|butter|cream|yogh?urt|ghee|parmesan|mozzarella|ricotta|feta|paneer|whey|casein|custard|kefir|labneh/,
    allergens: ['dairy'],
    diet: ['dairy'],
    unless: PLANT_LOOKALIKE,
  },
  {
    pattern: /\beggs?\b|mayonnaise|\bmayo\b|meringue|aioli|egg yolk|egg white/,
    allergens: ['eggs'],
    diet: ['egg'],
  },
  { pattern: /\bsoy|soya|tofu|tempeh|edamame|miso|tamari/, allergens: ['soy'] },
  {
    pattern:
      /wheat|flour|bread|pasta|spaghetti|linguine|penne|macaroni|lasagn|noodle|couscous|bulgur|semolina|barley|\brye\b|seitan|crumb|panko|tortilla|pita|cracker|biscuit|farro|spelt|orzo|gnocchi|dumpling|pastry|\bbun\b|bagel|naan|udon|ramen/,
    allergens: ['wheat', 'gluten'],
    diet: ['gluten'],
  },
  { pattern: /sesame|tahini|halva/, allergens: ['sesame'] },
  { pattern: /mustard/, allergens: ['mustard'] },
  { pattern: /celery|celeriac/, allergens: ['celery'] },
  { pattern: /chicken|turkey|duck|goose|quail|poultry/, diet: ['meat', 'poultry'] },
  {
    pattern: /pork|bacon|\bham\b|pancetta|prosciutto|chorizo|salami|pepperoni|lard|guanciale/,
    diet: ['meat', 'pork'],
  },
  {
    pattern:
      /beef|steak|veal|lamb|mutton|goat|venison|mince|meatball|burger|sausage|gelatin|bone broth|beef stock|chicken stock/,
    diet: ['meat'],
  },
  { pattern: /honey/, diet: ['honey'] },
  {
    pattern: /\bwine\b|beer|\brum\b|brandy|vodka|\bsake\b|mirin|liqueur|bourbon|whisk|cognac|sherry|marsala/,
    diet: ['alcohol'],
  },
];

/** Names that contain a keyword without its meaning. */
const SAFE_COMPOUNDS = /butternut|buckwheat|cream of tartar|eggplant|nutmeg|coconut cream|water chestnut/g;

/** Allergen tags and diet facts a free-text ingredient name suggests. */
export function keywordFacts(name: string): { allergens: string[]; diet: string[] } {
  const text = name.toLowerCase().replace(SAFE_COMPOUNDS, ' ');
  const allergens = new Set<string>();
  const diet = new Set<string>();
  for (const rule of RULES) {
    if (!rule.pattern.test(text) || rule.unless?.test(text)) continue;
    for (const a of rule.allergens ?? []) allergens.add(a);
    for (const d of rule.diet ?? []) diet.add(d);
  }
  return { allergens: [...allergens], diet: [...diet] };
}

/** A reference ingredient with the keyword facts of the name it was matched from added. */
export function withKeywordFacts(info: IngredientInfo, name: string): IngredientInfo {
  const facts = keywordFacts(name);
  return {
    ...info,
    allergens: [...new Set([...info.allergens, ...facts.allergens])],
    diet: [...new Set([...info.diet, ...facts.diet])],
  };
}

/** An ingredient the table does not know, with the facts its name suggests and no nutrition. */
export function guessIngredient(name: string): IngredientInfo {
  const { allergens, diet } = keywordFacts(name);
  return {
    id: -1,
    name,
    aliases: [],
    category: 'unknown',
    defaultUnit: 'g',
    nutrition: { kcal: 0, protein: 0, carbs: 0, fat: 0, fiber: 0 },
    allergens,
    diet,
    density: null,
    pieceGrams: null,
    measures: {},
  };
}
