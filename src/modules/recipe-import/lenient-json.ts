/**
 * JSON as pages really embed it (pure): wrapped in `<!-- -->` or `//<![CDATA[ … //]]>`, with raw
 * line breaks and tabs inside strings (invalid JSON that browsers' JSON-LD readers accept).
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const WRAPPERS =
  /^\s*(?:\/\/\s*)?(?:<!--|<!\[CDATA\[|\/\*\s*<!\[CDATA\[\s*\*\/)|(?:\/\/\s*|\/\*\s*)?(?:-->|\]\]>)(?:\s*\*\/)?\s*$/g;

/** Control characters inside string literals escaped; the rest of the text untouched. */
function escapeControlsInStrings(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') {
        out += c + (text[i + 1] ?? '');
        i += 1;
        continue;
      }
      if (c === '"') inString = false;
      else if (c < ' ') {
        out += c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : ' ';
        continue;
      }
    } else if (c === '"') inString = true;
    out += c;
  }
  return out;
}

/** The parsed document, or undefined when the text is not JSON even after those repairs. */
export function readJsonLenient(text: string): Json | undefined {
  const body = text.replace(WRAPPERS, '').trim();
  if (!body) return undefined;
  for (const candidate of [body, escapeControlsInStrings(body)]) {
    try {
      return JSON.parse(candidate) as Json;
    } catch {
      // try the next repair
    }
  }
  return undefined;
}

/** The end (exclusive) of the balanced `{…}` starting at `start`, strings respected; -1 if unbalanced. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth += 1;
    else if (c === '}') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** At most this many candidate objects a text: each costs a scan, and a hostile page can hold many. */
const MAX_CANDIDATES = 32;

/** JSON objects inside free text that open with `marker` as their first key (`{"@context": …}`). */
export function jsonObjectsAround(text: string, marker: string): Json[] {
  const out: Json[] = [];
  let from = 0;
  for (let tried = 0; tried < MAX_CANDIDATES; tried++) {
    const at = text.indexOf(marker, from);
    if (at < 0) return out;
    from = at + marker.length;
    const open = text.lastIndexOf('{', at);
    if (open < 0 || text.slice(open + 1, at).trim() !== '') continue;
    const end = objectEnd(text, open);
    // Unbalanced to the end of the text: no later object can close either.
    if (end < 0) return out;
    const doc = readJsonLenient(text.slice(open, end));
    if (doc !== undefined) {
      out.push(doc);
      from = end;
    }
  }
  return out;
}
