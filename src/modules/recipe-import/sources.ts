import { decodeHTML } from 'entities';
import { parse as parseYaml } from 'yaml';
import type { Json } from './lenient-json.ts';
import { jsonLdRecipeNodes, recipeNodesOfHtml, type StructuredForm } from './structured-data.ts';

/**
 * Readers for recipe files people have: Markdown with front matter (the public-domain recipes
 * format: title/tags/date/author, "⏲️ Prep time: 25 min" lines, "## Ingredients", "## Directions")
 * and schema.org Recipes (a JSON-LD file, or any structured form in an HTML page, structured-data.ts).
 * Pure: text in, source recipes out; ingredient lines stay free text here.
 */

export interface SourceRecipe {
  /** Stable key derived from the file (or the recipe name inside a JSON-LD file). */
  slug: string;
  title: string;
  description: string;
  tags: string[];
  /** Minutes; undefined when the source does not say. */
  prepTime: number | undefined;
  cookTime: number | undefined;
  servings: number | undefined;
  cuisine: string | undefined;
  ingredientLines: string[];
  steps: string[];
  /** The picture the source names (kept as a reference, never fetched here). */
  imageUrl?: string | undefined;
  /** Per serving, as the source states it. */
  nutrition?: SourceNutrition | undefined;
  /** How the page carried the recipe; undefined for Markdown. */
  form?: StructuredForm | undefined;
}

export interface SourceNutrition {
  kcal?: number;
  protein?: number;
  carbs?: number;
  fat?: number;
  fiber?: number;
}

export function slugify(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
}

/** "25 min", "4 hours", "1 hour 30 min", "1h30", "1.5 hours", "10 minutes" → minutes. */
export function parseDurationText(text: string): number | undefined {
  // "1h30" → "1 h 30 min"
  const t = text.toLowerCase().replace(/(\d+)\s*h\s*(\d+)\b(?!\s*m)/g, '$1 h $2 min');
  let minutes = 0;
  let found = false;
  for (const m of t.matchAll(
    /(\d+(?:[.,]\d+)?)\s*(h|hr|hrs|hour|hours|m|min|mins|minute|minutes|d|day|days)\b/g,
  )) {
    const n = Number(m[1]!.replace(',', '.'));
    const unit = m[2]!;
    minutes += unit.startsWith('d') ? n * 1440 : unit.startsWith('h') ? n * 60 : n;
    found = true;
  }
  if (!found) {
    const bare = /^\s*(\d+)\s*$/.exec(t);
    return bare ? Number(bare[1]) : undefined;
  }
  return Math.round(minutes);
}

/** ISO 8601 durations of schema.org ("PT1H30M", "P0DT45M") → minutes. */
export function parseIsoDuration(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m =
    /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(
      value.trim(),
    );
  if (!m) return parseDurationText(value);
  const [, d, h, min, s] = m;
  const total = Number(d ?? 0) * 1440 + Number(h ?? 0) * 60 + Number(min ?? 0) + Number(s ?? 0) / 60;
  return Math.round(total);
}

function firstInteger(text: string): number | undefined {
  const m = /(\d+)/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** HTML entities decoded, twice when a site encoded them twice ("&amp;#39;"). */
export function decodeEntities(text: string): string {
  const once = decodeHTML(text);
  return /&(?:#\d+|#x[\da-f]+|[a-z]+\d*);/i.test(once) ? decodeHTML(once) : once;
}

/** Markdown links and images, emphasis, HTML tags and entities out: "[garam masala](/garam-masala)" → "garam masala". */
export function plainText(text: string): string {
  // Entities first: "&lt;b&gt;" is a tag once decoded, and goes with the others.
  return decodeEntities(text)
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\u00a0/g, ' ')
    .replace(/(\*\*|__|\*|`)/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s+([.,;:!?])/g, '$1')
    .trim();
}

// ---- Markdown with front matter ------------------------------------------------------------------

/** Front matter through a YAML parser; values become strings or lists of strings. */
export function parseFrontMatter(block: string): Record<string, string | string[]> {
  let doc: unknown;
  try {
    doc = parseYaml(block);
  } catch {
    return {};
  }
  const out: Record<string, string | string[]> = {};
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return out;
  for (const [key, value] of Object.entries(doc as Record<string, unknown>)) {
    const k = key.toLowerCase();
    if (Array.isArray(value)) out[k] = value.filter((v) => v !== null && typeof v !== 'object').map(String);
    else if (value instanceof Date) out[k] = value.toISOString().slice(0, 10);
    else if (value !== null && typeof value !== 'object') out[k] = String(value).trim();
  }
  return out;
}

function sectionLines(body: string, heading: RegExp): string[] | undefined {
  const lines = body.split(/\r?\n/);
  const start = lines.findIndex((l) => heading.test(l));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^##\s/.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** Numbered or bulleted steps; a line that continues the previous step is joined to it. */
function stepsOf(lines: readonly string[]): string[] {
  const steps: string[] = [];
  for (const line of lines) {
    if (/^\s*#/.test(line) || !line.trim()) continue;
    const item = /^\s*(?:\d+[.)]|[-*+])\s+(.*)$/.exec(line);
    if (item) steps.push(plainText(item[1]!));
    else if (steps.length > 0) steps[steps.length - 1] += ` ${plainText(line)}`;
    else steps.push(plainText(line));
  }
  return steps.map((s) => s.trim()).filter(Boolean);
}

export function parseMarkdownRecipe(text: string, fileSlug: string): SourceRecipe {
  const fm = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  const meta = fm ? parseFrontMatter(fm[1]!) : {};
  const body = fm ? text.slice(fm[0].length) : text;
  const title = typeof meta.title === 'string' ? meta.title : (/^#\s+(.*)$/m.exec(body)?.[1] ?? fileSlug);
  const tags = (Array.isArray(meta.tags) ? meta.tags : typeof meta.tags === 'string' ? [meta.tags] : []).map(
    (t) => t.toLowerCase(),
  );
  const timeLine = (label: RegExp) => {
    const line = body.split(/\r?\n/).find((l) => label.test(l));
    return line ? line.slice(line.indexOf(':') + 1) : undefined;
  };
  const prep = timeLine(/prep(aration)? time\s*:/i);
  const cook = timeLine(/cook(ing)? time\s*:/i);
  const serves = timeLine(/(servings|serves|yield)\s*:/i);
  const ingredientSection = sectionLines(body, /^##\s+ingredients\b/i) ?? [];
  const ingredientLines = ingredientSection.filter((l) => /^\s*[-*+]\s+\S/.test(l)).map((l) => l.trim());
  const steps = stepsOf(
    sectionLines(body, /^##\s+(directions|instructions|method|steps|preparation)\b/i) ?? [],
  );
  const description =
    (typeof meta.description === 'string' && meta.description) ||
    (body
      .split(/\r?\n\s*\r?\n/)
      .map((p) => p.trim())
      .find((p) => p && !/^(#|[-*+]\s|!\[|\d+\.|>)/.test(p)) ??
      '');
  return {
    slug: slugify(fileSlug),
    title: plainText(title),
    description: plainText(description),
    tags,
    prepTime: prep !== undefined ? parseDurationText(prep) : undefined,
    cookTime: cook !== undefined ? parseDurationText(cook) : undefined,
    servings: serves !== undefined ? firstInteger(serves) : undefined,
    cuisine: undefined,
    ingredientLines,
    steps,
  };
}

// ---- schema.org Recipe nodes -------------------------------------------------------------------

const isObject = (v: unknown): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A property's text: strings, numbers, the first of a list, or a node's `@value`/`name`/`text`. */
const text = (v: Json | undefined): string =>
  typeof v === 'string'
    ? plainText(v)
    : typeof v === 'number'
      ? String(v)
      : Array.isArray(v)
        ? (v.map(text).find(Boolean) ?? '')
        : isObject(v)
          ? text(v['@value'] ?? v.name ?? v.text)
          : '';

const list = (v: Json | undefined): Json[] =>
  v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];

/** HTML in a text field: block ends and line breaks become line breaks before the tags go. */
const htmlLines = (v: string) =>
  v
    .replace(/<\/(?:p|li|div|h\d)>|<br\s*\/?>/gi, '\n')
    .split(/\r?\n+/)
    .map(plainText)
    .filter(Boolean);

function instructions(v: Json | undefined): string[] {
  if (typeof v === 'string') {
    return htmlLines(v.replace(/(?<=\.)\s+(?=\d+\.\s)/g, '\n'))
      .map((s) => s.replace(/^\s*\d+[.)]\s*/, '').trim())
      .filter(Boolean);
  }
  if (Array.isArray(v)) return v.flatMap((item) => instructions(item));
  if (isObject(v)) {
    // HowToSection / ItemList: its steps; HowToStep / HowToDirection: its text.
    if (v.itemListElement) return instructions(v.itemListElement);
    if (v.step) return instructions(v.step);
    return instructions(v.text ?? v.name ?? v.description ?? null);
  }
  return [];
}

function ingredientLinesOf(node: Record<string, Json>): string[] {
  return list(node.recipeingredient ?? node.ingredients)
    .flatMap((item) => (typeof item === 'string' ? htmlLines(item) : [text(item)]))
    .map((line) => line.trim())
    .filter(Boolean);
}

/** "4", 4, ["4", "4 servings"], "Serves 6-8", "12 cookies" → the first whole number. */
function servingsOf(v: Json | undefined): number | undefined {
  for (const item of list(v)) {
    const n = firstInteger(text(item));
    if (n !== undefined && n > 0) return n;
  }
  return undefined;
}

function imageOf(v: Json | undefined): string | undefined {
  for (const item of list(v)) {
    const url = typeof item === 'string' ? item : isObject(item) ? text(item.url ?? item.contentUrl) : '';
    if (/^https?:\/\//i.test(url.trim())) return url.trim();
  }
  return undefined;
}

const amountOf = (v: Json | undefined): number | undefined => {
  const m = /(\d+(?:[.,]\d+)?)/.exec(text(v));
  return m ? Number(m[1]!.replace(',', '.')) : undefined;
};

function nutritionOf(v: Json | undefined): SourceNutrition | undefined {
  const n = list(v).find(isObject);
  if (!n) return undefined;
  const out: SourceNutrition = {};
  const put = (key: keyof SourceNutrition, value: number | undefined) => {
    if (value !== undefined && Number.isFinite(value)) out[key] = value;
  };
  put('kcal', amountOf(n.calories));
  put('protein', amountOf(n.proteinContent));
  put('carbs', amountOf(n.carbohydrateContent));
  put('fat', amountOf(n.fatContent));
  put('fiber', amountOf(n.fiberContent));
  return Object.keys(out).length > 0 ? out : undefined;
}

const words = (v: Json | undefined): string[] =>
  list(v).flatMap((item) => (typeof item === 'string' ? item.split(',') : [text(item)]));

/** Property names as sites write them ("RecipeInstructions", "Description") read as schema.org's. */
function lowerKeys(node: Record<string, Json>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    const k = key.toLowerCase();
    if (out[k] === undefined || key === k) out[k] = value;
  }
  return out;
}

export function fromRecipeNode(
  written: Record<string, Json>,
  fallbackSlug: string,
  form?: StructuredForm,
): SourceRecipe {
  const node = lowerKeys(written);
  const title = text(node.name) || text(node.headline) || fallbackSlug;
  const tags = [...words(node.recipecategory), ...words(node.keywords)]
    .map((t) => plainText(t).toLowerCase())
    .filter(Boolean);
  const cuisine = text(node.recipecuisine).toLowerCase() || undefined;
  const prep = parseIsoDuration(text(node.preptime));
  const cook = parseIsoDuration(text(node.cooktime));
  const total = parseIsoDuration(text(node.totaltime));
  return {
    slug: slugify(title) || slugify(fallbackSlug),
    title,
    description: text(node.description),
    tags: [...new Set(tags)],
    prepTime: prep,
    // Only a total given: the part that is not preparation is cooking.
    cookTime: cook ?? (total !== undefined ? Math.max(total - (prep ?? 0), 0) : undefined),
    servings: servingsOf(node.recipeyield ?? node.yield),
    cuisine,
    ingredientLines: ingredientLinesOf(node),
    steps: instructions(node.recipeinstructions ?? node.instructions ?? null),
    imageUrl: imageOf(node.image ?? node.thumbnailurl),
    nutrition: nutritionOf(node.nutrition),
    form,
  };
}

export function parseJsonLdRecipes(json: string, fileSlug: string): SourceRecipe[] {
  return jsonLdRecipeNodes(JSON.parse(json) as Json).map((node) => fromRecipeNode(node, fileSlug, 'json-ld'));
}

const richness = (r: SourceRecipe) => r.ingredientLines.length + r.steps.length;

/**
 * One recipe per name: pages often state it twice (an SEO plugin's stub and the recipe card's full
 * node). The richest statement wins; fields only the other states are taken from it.
 */
function mergeDuplicates(recipes: readonly SourceRecipe[]): SourceRecipe[] {
  const bySlug = new Map<string, SourceRecipe>();
  for (const r of recipes) {
    const seen = bySlug.get(r.slug);
    if (!seen) {
      bySlug.set(r.slug, r);
      continue;
    }
    const [main, other] = richness(r) > richness(seen) ? [r, seen] : [seen, r];
    bySlug.set(r.slug, {
      ...main,
      description: main.description || other.description,
      prepTime: main.prepTime ?? other.prepTime,
      cookTime: main.cookTime ?? other.cookTime,
      servings: main.servings ?? other.servings,
      cuisine: main.cuisine ?? other.cuisine,
      imageUrl: main.imageUrl ?? other.imageUrl,
      nutrition: main.nutrition ?? other.nutrition,
      tags: [...new Set([...main.tags, ...other.tags])],
    });
  }
  return [...bySlug.values()];
}

/** Every recipe an HTML page carries in structured form (JSON-LD, microdata, hRecipe). */
export function parseHtmlRecipes(html: string, fileSlug: string): SourceRecipe[] {
  return mergeDuplicates(
    recipeNodesOfHtml(html).map(({ node, form }) => fromRecipeNode(node, fileSlug, form)),
  );
}
