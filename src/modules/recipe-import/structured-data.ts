import type { AnyNode, Element } from 'domhandler';
import { getAttributeValue, innerText, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { readJsonLenient, jsonObjectsAround, type Json } from './lenient-json.ts';

/**
 * Every schema.org Recipe a web page carries, in the forms the web writes it (pure):
 * - JSON-LD scripts: an object, an array or an `@graph`, `@type` as a string or an array, several
 *   scripts a page, CDATA or comment wrappers, raw line breaks inside strings;
 * - JSON-LD that a Next.js page streams inside `self.__next_f.push([1,"…"])` script strings;
 * - microdata (`itemscope itemtype=".../Recipe"`, nested HowToStep scopes, `content`/`datetime`);
 * - microdata properties of a recipe written without their Recipe scope (`itemprop="ingredients"`);
 * - the hRecipe microformat (`class="hrecipe"` / `h-recipe`).
 * Each comes back as a JSON-LD-shaped node, so one reader (sources.ts) turns them into recipes.
 */
export type StructuredForm = 'json-ld' | 'microdata' | 'microformat';

export interface RecipeNode {
  form: StructuredForm;
  node: Record<string, Json>;
}

const isObject = (v: unknown): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function typesOf(node: Record<string, Json>): string[] {
  const type = node['@type'];
  const list = Array.isArray(type) ? type : [type];
  return list.filter((t): t is string => typeof t === 'string').map((t) => t.replace(/^.*[/#:]/, ''));
}

/** Recipe nodes of a JSON-LD document: top level, arrays, `@graph`, and nodes nested in other nodes. */
export function jsonLdRecipeNodes(doc: Json): Record<string, Json>[] {
  const out: Record<string, Json>[] = [];
  const visit = (node: Json, depth: number) => {
    if (depth > 8) return;
    if (Array.isArray(node)) for (const n of node) visit(n, depth + 1);
    else if (isObject(node)) {
      if (typesOf(node).includes('Recipe')) out.push(node);
      else for (const value of Object.values(node)) if (typeof value === 'object') visit(value, depth + 1);
    }
  };
  visit(doc, 0);
  return out;
}

/** Every element below `nodes`, in document order (iterative: a page may nest very deep). */
const elementsOf = (nodes: readonly AnyNode[]): Element[] => {
  const out: Element[] = [];
  const stack: AnyNode[] = [...nodes].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type !== 'tag' && n.type !== 'script' && n.type !== 'style') continue;
    out.push(n as Element);
    const children = (n as Element).children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return out;
};

const attr = (el: Element, name: string) => getAttributeValue(el, name);
const classes = (el: Element) => new Set((attr(el, 'class') ?? '').split(/\s+/).filter(Boolean));

function jsonLdScripts(elements: readonly Element[]): Json[] {
  const docs: Json[] = [];
  for (const el of elements) {
    if (el.name !== 'script') continue;
    const type = (attr(el, 'type') ?? '').trim().toLowerCase();
    const body = textContent(el);
    if (type === 'application/ld+json') {
      const doc = readJsonLenient(body);
      if (doc !== undefined) docs.push(doc);
    } else if (body.includes('self.__next_f.push')) {
      docs.push(...nextFlightJsonLd(body));
    }
  }
  return docs;
}

/** Next.js app-router pages stream their data as JS strings; JSON-LD sits inside them as text. */
function nextFlightJsonLd(script: string): Json[] {
  const out: Json[] = [];
  for (const m of script.matchAll(/self\.__next_f\.push\((\[[\s\S]*?\])\)/g)) {
    let chunk: Json;
    try {
      chunk = JSON.parse(m[1]!) as Json;
    } catch {
      continue;
    }
    const text = Array.isArray(chunk) ? chunk.find((c) => typeof c === 'string') : undefined;
    if (typeof text === 'string' && text.includes('@context'))
      out.push(...jsonObjectsAround(text, '"@context"'));
  }
  return out;
}

// ---- microdata -----------------------------------------------------------------------------------

const URL_VALUED = new Set(['img', 'audio', 'video', 'source', 'embed', 'iframe', 'track']);
const LINK_VALUED = new Set(['a', 'area', 'link']);

/** The value of an itemprop element, as the microdata specification defines it (plus `content` anywhere). */
function propertyValue(el: Element): string {
  const content = attr(el, 'content');
  if (content !== undefined) return content;
  if (URL_VALUED.has(el.name)) return attr(el, 'src') ?? '';
  if (LINK_VALUED.has(el.name)) return attr(el, 'href') ?? '';
  if (el.name === 'object') return attr(el, 'data') ?? '';
  if (el.name === 'data' || el.name === 'meter') return attr(el, 'value') ?? '';
  if (el.name === 'time') return attr(el, 'datetime') ?? innerText(el);
  return innerText(el);
}

/** An itemscope as a JSON-LD-like node: properties found below it, nested scopes as nested nodes. */
function scopeNode(scope: Element): Record<string, Json> {
  const node: Record<string, Json> = {};
  const type = attr(scope, 'itemtype');
  if (type) node['@type'] = type.split(/\s+/).filter(Boolean);
  const add = (name: string, value: Json) => {
    const current = node[name];
    node[name] = current === undefined ? [value] : [...(current as Json[]), value];
  };
  const walk = (children: readonly AnyNode[]) => {
    for (const child of children) {
      if (child.type !== 'tag') continue;
      const el = child as Element;
      const props = (attr(el, 'itemprop') ?? '').split(/\s+/).filter(Boolean);
      const nested = attr(el, 'itemscope') !== undefined;
      for (const prop of props) add(prop, nested ? scopeNode(el) : propertyValue(el));
      if (!nested) walk(el.children);
    }
  };
  walk(scope.children);
  return node;
}

/** Recipes read from one page at most (a page holds one, a round-up a few dozen). */
const MAX_RECIPES = 50;

const RECIPE_PROPS = new Set(['recipeIngredient', 'ingredients', 'recipeInstructions', 'recipeYield']);

function microdataRecipes(elements: readonly Element[]): RecipeNode[] {
  const scopes = elements.filter(
    (el) =>
      attr(el, 'itemscope') !== undefined &&
      (attr(el, 'itemtype') ?? '').split(/\s+/).some((t) => /schema\.org\/Recipe$/i.test(t)),
  );
  // A scope inside another recipe scope is that recipe's part, not a recipe of its own. A page
  // carries a few recipes; a hostile one thousands, which are not worth a quadratic check.
  const few = scopes.slice(0, MAX_RECIPES);
  const outer = few.filter((s) => !few.some((o) => o !== s && isInside(s, o)));
  if (outer.length > 0) return outer.map((s) => ({ form: 'microdata', node: scopeNode(s) }));
  return orphanProperties(elements);
}

function isInside(el: Element, ancestor: Element): boolean {
  for (let p = el.parent; p; p = p.parent) if (p === ancestor) return true;
  return false;
}

/** Recipe properties written without their itemscope: the page itself is the recipe. */
function orphanProperties(elements: readonly Element[]): RecipeNode[] {
  const loose = elements.filter((el) => {
    const props = (attr(el, 'itemprop') ?? '').split(/\s+/);
    if (!props.some((p) => RECIPE_PROPS.has(p))) return false;
    for (let p = el.parent; p; p = p.parent) if (attr(p as Element, 'itemscope') !== undefined) return false;
    return true;
  });
  if (!loose.some((el) => /ingredient/i.test(attr(el, 'itemprop') ?? ''))) return [];
  const node: Record<string, Json> = { '@type': 'Recipe' };
  for (const el of loose)
    for (const prop of (attr(el, 'itemprop') ?? '').split(/\s+/).filter(Boolean)) {
      node[prop] = [...((node[prop] as Json[] | undefined) ?? []), propertyValue(el)];
    }
  node.name = pageTitle(elements) ?? '';
  return [{ form: 'microdata', node }];
}

function pageTitle(elements: readonly Element[]): string | undefined {
  const og = elements.find((el) => el.name === 'meta' && attr(el, 'property') === 'og:title');
  const h1 = elements.find((el) => el.name === 'h1');
  const title = elements.find((el) => el.name === 'title');
  const text = (og && attr(og, 'content')) ?? (h1 && innerText(h1)) ?? (title && innerText(title));
  return text?.trim() || undefined;
}

// ---- hRecipe microformat ---------------------------------------------------------------------------

function microformatRecipes(elements: readonly Element[]): RecipeNode[] {
  const roots = elements
    .filter((el) => classes(el).has('hrecipe') || classes(el).has('h-recipe'))
    .slice(0, MAX_RECIPES);
  return roots.map((root) => {
    const inside = elementsOf(root.children);
    const having = (...names: string[]) => inside.filter((el) => names.some((n) => classes(el).has(n)));
    const texts = (list: Element[]) => list.map((el) => innerText(el).trim()).filter(Boolean);
    const instructions = having('instructions', 'e-instructions');
    const steps = instructions.flatMap((el) => {
      const items = elementsOf(el.children).filter((c) => c.name === 'li');
      return items.length > 0 ? texts(items) : [innerText(el)];
    });
    const photo = having('photo', 'u-photo')[0];
    const node: Record<string, Json> = {
      '@type': 'Recipe',
      name: texts(having('fn', 'p-name'))[0] ?? pageTitle(elements) ?? '',
      recipeIngredient: texts(having('ingredient', 'p-ingredient')),
      recipeInstructions: steps,
      recipeYield: texts(having('yield', 'p-yield'))[0] ?? null,
      description: texts(having('summary', 'p-summary'))[0] ?? '',
      image: photo ? (attr(photo, 'src') ?? attr(photo, 'href') ?? null) : null,
    };
    return { form: 'microformat' as const, node };
  });
}

// ---- steps the structured data leaves out ----------------------------------------------------------

/** Sections named like a method or ingredient list looked into at most (each costs a walk). */
const MAX_CONTAINERS = 20;

const STEP_CONTAINER =
  /(?:^|[-_\s])(?:instructions?|directions?|method|preparation|steps|zubereitung|bereiding|bereidingswijze|preparacion|preparazione|procedimento|modo-de-preparo)(?:$|[-_\s])/i;

/**
 * Some sites' structured recipe has no instructions although the page shows them (the recipe
 * card's list). The first list or paragraphs under an element named like a method section are
 * taken; only for a recipe the structured data already found.
 */
function pageSteps(elements: readonly Element[]): string[] {
  const containers = elements
    .filter((el) => STEP_CONTAINER.test(`${attr(el, 'class') ?? ''} ${attr(el, 'id') ?? ''}`))
    .slice(0, MAX_CONTAINERS);
  for (const el of containers) {
    const inside = elementsOf(el.children);
    const items = inside.filter((c) => c.name === 'li');
    const blocks = items.length > 0 ? items : inside.filter((c) => c.name === 'p');
    const steps = blocks.map((c) => innerText(c).replace(/\s+/g, ' ').trim()).filter((t) => t.length >= 15);
    if (steps.length > 0) return steps;
  }
  return stepsUnderHeading(elements);
}

const INGREDIENT_CONTAINER =
  /(?:^|[-_\s])(?:[a-z]+-)?(?:ingredients?|zutaten|ingr[eé]dients|ingredientes|ingredienti|ingredi[eë]nten)(?:$|[-_\s])/i;
const INGREDIENT_HEADING =
  /^\s*(?:ingredients?|zutaten|ingr[ée]dients|ingredientes|ingredienti|ingredi[eë]nten)\b/i;

/** Ingredient list items the page shows where its structured recipe has none. */
function pageIngredients(elements: readonly Element[]): string[] {
  const lines = (list: Element[]) =>
    list
      .filter((li) => !elementsOf(li.children).some((c) => c.name === 'li'))
      .map((li) => innerText(li).replace(/\s+/g, ' ').trim())
      .filter((t) => t.length >= 2 && t.length <= 200);
  const containers = elements
    .filter((el) => INGREDIENT_CONTAINER.test(`${attr(el, 'class') ?? ''} ${attr(el, 'id') ?? ''}`))
    .slice(0, MAX_CONTAINERS);
  for (const el of containers) {
    const found = lines(elementsOf(el.children).filter((c) => c.name === 'li'));
    if (found.length > 0) return found;
  }
  const start = elements.findIndex((el) => HEADING.test(el.name) && INGREDIENT_HEADING.test(innerText(el)));
  if (start < 0) return [];
  const items: Element[] = [];
  for (const el of elements.slice(start + 1)) {
    if (HEADING.test(el.name)) break;
    if (el.name === 'li') items.push(el);
  }
  return lines(items);
}

const METHOD_HEADING =
  /^\s*(?:directions|instructions|method|preparation|steps|how to make|elaboraci[oó]n|preparaci[oó]n|modo de preparo|zubereitung|bereiding(?:swijze)?|pr[ée]paration|procedimento|preparazione)\b/i;
const HEADING = /^h[1-4]$/;

/** The paragraphs and list items after a heading such as "Directions", up to the next heading. */
function stepsUnderHeading(elements: readonly Element[]): string[] {
  const start = elements.findIndex((el) => HEADING.test(el.name) && METHOD_HEADING.test(innerText(el)));
  if (start < 0) return [];
  const steps: string[] = [];
  for (const el of elements.slice(start + 1)) {
    if (HEADING.test(el.name)) break;
    if (el.name !== 'p' && el.name !== 'li') continue;
    if (elementsOf(el.children).some((c) => c.name === 'p' || c.name === 'li')) continue;
    const text = innerText(el).replace(/\s+/g, ' ').trim();
    if (text.length >= 15) steps.push(text);
  }
  return steps;
}

const hasProperty = (node: Record<string, Json>, name: RegExp) =>
  Object.entries(node).some(
    ([key, value]) => name.test(key) && JSON.stringify(value).replace(/[\s"[\]{}]/g, '').length > 0,
  );

/**
 * Tens of thousands of unclosed containers cost the HTML parser time that grows with the square of
 * the depth (200,000 took 20 s); no page nests its containers a thousand deep, so such a page is
 * not read at all. Containers only: lists and paragraphs are closed implicitly and do not count.
 */
const MAX_NESTING = 1000;
const CONTAINER_TAG =
  /<(\/?)(?:div|span|section|article|main|aside|ul|ol|table|form|blockquote|nav|header|footer)\b[^>]*?(\/?)>/gi;

function nestsTooDeep(html: string): boolean {
  let depth = 0;
  for (const m of html.matchAll(CONTAINER_TAG)) {
    if (m[2]) continue; // <div/>
    depth = m[1] ? Math.max(depth - 1, 0) : depth + 1;
    if (depth > MAX_NESTING) return true;
  }
  return false;
}

/**
 * Every Recipe the page carries; JSON-LD first (the richest form), then microdata, then
 * microformats. A page nested so deep that reading its text overflows the stack carries none.
 */
export function recipeNodesOfHtml(html: string): RecipeNode[] {
  if (nestsTooDeep(html)) return [];
  try {
    return readNodes(html);
  } catch (error) {
    if (error instanceof RangeError) return [];
    throw error;
  }
}

function readNodes(html: string): RecipeNode[] {
  const dom = parseDocument(html, { decodeEntities: true });
  const elements = elementsOf(dom.children);
  const fromJsonLd = jsonLdScripts(elements)
    .flatMap((doc) => jsonLdRecipeNodes(doc).map((node) => ({ form: 'json-ld' as const, node })))
    .slice(0, MAX_RECIPES);
  const found =
    fromJsonLd.length > 0
      ? fromJsonLd
      : ((): RecipeNode[] => {
          const fromMicrodata = microdataRecipes(elements);
          return fromMicrodata.length > 0 ? fromMicrodata : microformatRecipes(elements);
        })();
  for (const { node } of found) {
    if (!hasProperty(node, /^(recipe)?instructions$/i)) {
      const steps = pageSteps(elements);
      if (steps.length > 0) node.recipeInstructions = steps;
    }
    if (!hasProperty(node, /^(recipeingredient|ingredients)$/i)) {
      const lines = pageIngredients(elements);
      if (lines.length > 0) node.recipeIngredient = lines;
    }
  }
  return found;
}
