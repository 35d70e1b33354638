/**
 * Allergens and diet facts of a USDA food, read from its food group and description. Imported foods
 * become choices for users with allergies, so the rules err on the unsafe side: a word that may
 * mean an allergen adds it (gelatin counts as pork, an unnamed sausage as pork, oats as gluten).
 */

export interface FoodFacts {
  allergens: string[];
  diet: string[];
}

const has = (text: string, pattern: RegExp) => pattern.test(text);
// The NOT_* and PLANT_MILK patterns are global: they only ever serve .replace (never .test).

const PLANT_MILK = /\b(coconut|soy|almond|rice|oat|cashew|hemp)\s*(milk|cream|beverage|drink)\b/g;
const DAIRY =
  /\b(milk|milks|cheese|cheeses|cream|creamer|butter|buttermilk|yogurt|yoghurt|whey|casein|caseinate|ghee|kefir|custard|lactose|ice cream|curd|curds|half and half|sour cream|dulce de leche|milkfat|paneer|ricotta|mozzarella|cheddar|parmesan)\b/;
const NOT_DAIRY =
  /\b(peanut butter|apple butter|cocoa butter|nut butter|almond butter|cashew butter|sesame butter|butternut|cream of tartar|shea butter|butter beans?)\b/g;
const EGG = /\b(egg|eggs|eggnog|mayonnaise|meringue|albumen|yolk|yolks)\b/;
const FISH =
  /\b(fish|anchov(y|ies)|tuna|salmon|cod|haddock|halibut|trout|sardines?|mackerel|herring|tilapia|pollock|bass|snapper|catfish|carp|perch|pike|flounder|sole|swordfish|mahimahi|eel|roe|caviar|whitefish|bluefish|grouper|mullet|pompano|sturgeon|shad|smelt|surimi|lingcod|rockfish|croaker|burbot|cusk|dolphinfish|drum|butterfish|wolffish|sucker|sheepshead|scup|tilefish|whiting|worcestershire)\b/;
const SHELLFISH =
  /\b(shellfish|shrimps?|prawns?|crabs?|lobsters?|crayfish|crawfish|clams?|mussels?|oysters?|scallops?|squid|octopus|cuttlefish|whelk|abalone|conch|snails?|mollusks?|crustaceans?|calamari|langoustines?|krill|spiny lobster)\b/;
const PEANUT = /\bpeanuts?\b/;
const TREE_NUT =
  /\b(almonds?|walnuts?|cashews?|pecans?|pistachios?|hazelnuts?|filberts?|macadamias?|brazilnuts?|brazil nuts?|pine nuts?|pinenuts?|pili nuts?|chestnuts?|beechnuts?|hickorynuts?|hickory nuts?|coconut|coconuts|praline|marzipan|nutella|gianduja|nuts?)\b/;
const NOT_NUT = /\b(nutmeg|butternut squash|doughnuts?|nutritional|water chestnuts?)\b/g;
const SOY = /\b(soy|soya|soybeans?|tofu|edamame|miso|tempeh|natto|okara|yuba|soymilk|tamari)\b/;
const SESAME = /\b(sesame|tahini|halvah|halva)\b/;
const MUSTARD = /\bmustard\b/;
const CELERY = /\b(celery|celeriac)\b/;
const WHEAT =
  /\b(wheat|flour|bread|breads|breadcrumbs?|bun|buns|rolls?|pasta|noodles?|spaghetti|macaroni|lasagna|couscous|semolina|durum|bulgur|farina|farro|spelt|kamut|einkorn|emmer|seitan|crackers?|cookies?|cakes?|biscuits?|pastry|pastries|pies?|pie crust|bagels?|muffins?|croissants?|pretzels?|waffles?|pancakes?|doughnuts?|tortillas?|pizza|croutons?|stuffing|wafers?|graham|danish|strudel|brownies?|dumplings?|gnocchi|ravioli|tortellini|breaded|batter|soy sauce|teriyaki|wonton|pita|matzo|bran|germ|triticale)\b/;
const NOT_WHEAT_FLOUR =
  /\b(rice|corn|potato|soy|tapioca|arrowroot|chickpea|almond|coconut|buckwheat|cassava|sorghum|millet|quinoa|amaranth|teff)\s+(flour|noodles?|pasta|bread|crackers?|cakes?|tortillas?|bran|germ)\b/g;
const OTHER_GLUTEN = /\b(barley|rye|malt|malted|oats?|oatmeal|oat bran|beer|ale|lager|brewer'?s yeast)\b/;
const GLUTEN_FREE = /\bgluten[- ]free\b/;
const PORK =
  /\b(pork|ham|hams|bacon|lard|prosciutto|pancetta|salami|chorizo|bratwurst|kielbasa|liverwurst|braunschweiger|mortadella|chitterlings|cracklings|gelatin|gelatine|boar|hog|pig|pigs|spareribs|headcheese|scrapple|luncheon meat|liver cheese|knackwurst|salt pork|souse|blood sausage)\b/;
const SAUSAGE =
  /\b(sausages?|frankfurters?|franks|hot ?dogs?|wieners?|salami|pepperoni|bologna|kielbasa|luncheon meat)\b/;
const POULTRY = /\b(chicken|turkey|duck|goose|quail|pheasant|squab|poultry|ostrich|emu|guinea hen|cornish)\b/;
const MEAT =
  /\b(meat|meats|beef|veal|lamb|mutton|goat|venison|bison|buffalo|elk|moose|rabbit|game|deer|caribou|antelope|bear|horse|frog|turtle|tallow|suet|broth|bouillon|gravy|stock|liver|kidneys?|tripe|tongue|heart|oxtail|jerky|pastrami|corned|steak|steaks|burgers?|hamburgers?|meatballs?|meatloaf|stew)\b/;
const NOT_MEAT =
  /\b(hearts of palm|artichoke hearts?|vegetable broth|vegetable stock|vegetarian|meatless|imitation|vegetable soup|mushroom broth|coconut meat|nut meat|kernel meat)\b/g;
const ALCOHOL =
  /\b(alcoholic|wine|wines|beer|ale|lager|liquor|liqueur|rum|vodka|whiskey|whisky|gin|brandy|cognac|tequila|sake|sherry|vermouth|port|mead|cider|champagne|bourbon|schnapps|daiquiri|margarita|martini|pina colada|cocktail|creme de menthe|kahlua)\b/;
const NON_ALCOHOLIC =
  /\b(non-?alcoholic|alcohol[- ]free|ginger ale|root beer|birch beer|cooking wine vinegar|wine vinegar|cider vinegar|sparkling cider|apple cider, non)\b/;
const HONEY = /\bhoney\b/;
const NOT_HONEY = /\b(honeydew|honeycrisp|honey locust)\b/;

/** Spices, fruits, vegetables, nuts and seeds, legumes. */
const PLANT_GROUPS = new Set(['0200', '0900', '1100', '1200', '1600']);

/** Facts implied by a food group alone (codes of FD_GROUP.txt). */
const GROUP_FACTS: Record<string, FoodFacts> = {
  '0500': { allergens: [], diet: ['meat', 'poultry', 'animal_product'] },
  '0700': { allergens: [], diet: ['meat', 'animal_product'] },
  '1000': { allergens: [], diet: ['meat', 'pork', 'animal_product'] },
  '1300': { allergens: [], diet: ['meat', 'animal_product'] },
  '1700': { allergens: [], diet: ['meat', 'animal_product'] },
  '1800': { allergens: ['gluten', 'wheat'], diet: ['gluten'] },
};

export function classifyFood(groupCode: string, description: string): FoodFacts {
  const text = description.toLowerCase();
  const allergens = new Set<string>(GROUP_FACTS[groupCode]?.allergens ?? []);
  const diet = new Set<string>(GROUP_FACTS[groupCode]?.diet ?? []);
  const add = (a: string[], d: string[]) => {
    for (const x of a) allergens.add(x);
    for (const x of d) diet.add(x);
  };

  // Group 0100 is dairy and egg products: anything there without "egg" is dairy.
  if (groupCode === '0100' && !has(text, EGG)) add(['dairy'], ['dairy', 'animal_product']);
  if (has(text.replace(NOT_DAIRY, '').replace(PLANT_MILK, ''), DAIRY))
    add(['dairy'], ['dairy', 'animal_product']);
  if (has(text, EGG)) add(['eggs'], ['egg', 'animal_product']);
  if (groupCode === '1500' || has(text, FISH) || has(text, SHELLFISH)) {
    if (has(text, SHELLFISH)) add(['shellfish'], ['shellfish', 'animal_product']);
    if (has(text, FISH) || !has(text, SHELLFISH)) add(['fish'], ['fish', 'animal_product']);
  }
  if (has(text, PEANUT)) add(['nuts', 'peanuts'], []);
  if (has(text.replace(NOT_NUT, ''), TREE_NUT)) add(['nuts', 'tree_nuts'], []);
  if (has(text, SOY)) add(['soy'], []);
  if (has(text, SESAME)) add(['sesame'], []);
  if (has(text, MUSTARD)) add(['mustard'], []);
  if (has(text, CELERY)) add(['celery'], []);
  if (!has(text, GLUTEN_FREE)) {
    if (has(text.replace(NOT_WHEAT_FLOUR, ''), WHEAT)) add(['gluten', 'wheat'], ['gluten']);
    if (has(text, OTHER_GLUTEN)) add(['gluten'], ['gluten']);
  }
  const meatText = text.replace(NOT_MEAT, '');
  if (has(meatText, POULTRY)) add([], ['meat', 'poultry', 'animal_product']);
  if (has(meatText, PORK)) add([], ['meat', 'pork', 'animal_product']);
  // Plant groups use "meat" for flesh of fruit and nuts; named animals (pork, chicken) still count.
  if (has(meatText, MEAT) && !PLANT_GROUPS.has(groupCode)) add([], ['meat', 'animal_product']);
  // Sausages and luncheon meats that name no other animal may be pork.
  const sausage = groupCode === '0700' || has(text, SAUSAGE);
  if (sausage && !has(text, POULTRY) && !/\b(beef|veal|lamb|mutton|venison|bison|goat|fish)\b/.test(text)) {
    add([], ['pork']);
  }
  if (has(text, ALCOHOL) && !has(text, NON_ALCOHOLIC)) add([], ['alcohol']);
  if (has(text, HONEY) && !has(text, NOT_HONEY)) add([], ['honey', 'animal_product']);
  return { allergens: [...allergens].sort(), diet: [...diet].sort() };
}
