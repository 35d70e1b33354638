/**
 * Readers for recipe files people have: Markdown with front matter (the public-domain recipes
 * format: title/tags/date/author, "⏲️ Prep time: 25 min" lines, "## Ingredients", "## Directions")
 * and schema.org Recipe JSON-LD (a .json file, or <script type="application/ld+json"> in .html).
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

/** Markdown links and images, emphasis and HTML tags out: "[garam masala](/garam-masala)" → "garam masala". */
export function plainText(text: string): string {
  return text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/(\*\*|__|\*|`)/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s+([.,;:!?])/g, '$1')
    .trim();
}

// ---- Markdown with front matter ------------------------------------------------------------------

/** The small YAML subset of front matter: `key: value`, quoted strings, `[a, 'b']` and `- item` lists. */
export function parseFrontMatter(block: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  let listKey: string | undefined;
  for (const line of block.split(/\r?\n/)) {
    const item = /^\s+-\s+(.*)$/.exec(line);
    if (item && listKey) {
      (out[listKey] as string[]).push(unquote(item[1]!));
      continue;
    }
    const kv = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (!kv) continue;
    const key = kv[1]!.toLowerCase();
    const value = kv[2]!.trim();
    if (value === '') {
      out[key] = [];
      listKey = key;
    } else if (value.startsWith('[') && value.endsWith(']')) {
      out[key] = value
        .slice(1, -1)
        .split(',')
        .map((v) => unquote(v.trim()))
        .filter(Boolean);
      listKey = undefined;
    } else {
      out[key] = unquote(value);
      listKey = undefined;
    }
  }
  return out;
}

const unquote = (v: string) => v.replace(/^(['"])(.*)\1$/, '$2').trim();

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
    body
      .split(/\r?\n\s*\r?\n/)
      .map((p) => p.trim())
      .find((p) => p && !/^(#|[-*+]\s|!\[|\d+\.|>)/.test(p)) ?? '';
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

// ---- schema.org JSON-LD ----------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function isRecipe(node: Record<string, Json>): boolean {
  const type = node['@type'];
  return type === 'Recipe' || (Array.isArray(type) && type.includes('Recipe'));
}

/** Every Recipe node in a JSON-LD document (top level, arrays, @graph, nested mainEntity). */
function recipeNodes(doc: Json): Record<string, Json>[] {
  const out: Record<string, Json>[] = [];
  const visit = (node: Json, depth: number) => {
    if (depth > 5) return;
    if (Array.isArray(node)) for (const n of node) visit(n, depth + 1);
    else if (isObject(node)) {
      if (isRecipe(node)) out.push(node);
      else
        for (const key of ['@graph', 'mainEntity', 'itemListElement'])
          if (node[key]) visit(node[key]!, depth + 1);
    }
  };
  visit(doc, 0);
  return out;
}

const text = (v: Json | undefined): string =>
  typeof v === 'string'
    ? plainText(v)
    : typeof v === 'number'
      ? String(v)
      : Array.isArray(v)
        ? text(v[0])
        : '';

function instructions(v: Json | undefined): string[] {
  if (typeof v === 'string') {
    return v
      .split(/\r?\n+|(?<=\.)\s+(?=\d+\.\s)/)
      .map((s) => plainText(s.replace(/^\s*\d+[.)]\s*/, '')))
      .filter(Boolean);
  }
  if (Array.isArray(v)) return v.flatMap((item) => instructions(item));
  if (isObject(v)) {
    if (v.itemListElement) return instructions(v.itemListElement); // HowToSection
    return [text(v.text ?? v.name)].filter(Boolean); // HowToStep
  }
  return [];
}

function fromJsonLd(node: Record<string, Json>, fallbackSlug: string): SourceRecipe {
  const title = text(node.name) || fallbackSlug;
  const keywords =
    typeof node.keywords === 'string'
      ? node.keywords.split(',')
      : Array.isArray(node.keywords)
        ? node.keywords.map(text)
        : [];
  const categories = Array.isArray(node.recipeCategory)
    ? node.recipeCategory.map(text)
    : [text(node.recipeCategory)];
  const cuisine = text(node.recipeCuisine).toLowerCase() || undefined;
  const ingredients = Array.isArray(node.recipeIngredient ?? node.ingredients)
    ? ((node.recipeIngredient ?? node.ingredients) as Json[]).map(text).filter(Boolean)
    : [];
  return {
    slug: slugify(title) || slugify(fallbackSlug),
    title,
    description: text(node.description),
    tags: [...categories, ...keywords].map((t) => t.trim().toLowerCase()).filter(Boolean),
    prepTime: parseIsoDuration(node.prepTime),
    cookTime: parseIsoDuration(node.cookTime),
    servings: firstInteger(text(node.recipeYield)),
    cuisine,
    ingredientLines: ingredients,
    steps: instructions(node.recipeInstructions),
  };
}

export function parseJsonLdRecipes(json: string, fileSlug: string): SourceRecipe[] {
  return recipeNodes(JSON.parse(json) as Json).map((node) => fromJsonLd(node, fileSlug));
}

/** JSON-LD blocks of an HTML page. A block that is not valid JSON is skipped. */
export function parseHtmlRecipes(html: string, fileSlug: string): SourceRecipe[] {
  const out: SourceRecipe[] = [];
  for (const m of html.matchAll(
    /<script[^>]*type=["']application\/ld\+json["'][^>]*>([\s\S]*?)<\/script>/gi,
  )) {
    try {
      out.push(...parseJsonLdRecipes(m[1]!, fileSlug));
    } catch {
      // not JSON: ignore this block, others may hold the recipe
    }
  }
  return out;
}
