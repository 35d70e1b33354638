/**
 * Small local models wrap JSON in prose or code fences, leave trailing commas, use single quotes,
 * bare keys or Python literals. parseLooseJson finds the outermost object (or array) in such text
 * and repairs those habits before parsing; it answers undefined when nothing parseable is there.
 */
export function parseLooseJson(text: string): unknown {
  const candidate = extractJsonText(stripFences(text));
  if (candidate === undefined) return undefined;
  try {
    return JSON.parse(candidate);
  } catch {
    // repaired below
  }
  try {
    return JSON.parse(repairJson(candidate));
  } catch {
    return undefined;
  }
}

export function stripFences(text: string): string {
  const fenced = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/.exec(text);
  return (fenced?.[1] ?? text).trim();
}

/** The first balanced {...} or [...] in the text (quotes respected), or the tail when unbalanced. */
export function extractJsonText(text: string): string | undefined {
  const start = text.search(/[{[]/);
  if (start < 0) return undefined;
  const stack: string[] = [];
  let quote: string | undefined;
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '{' || ch === '[') stack.push(ch === '{' ? '}' : ']');
    else if (ch === '}' || ch === ']') {
      stack.pop();
      if (stack.length === 0) return text.slice(start, i + 1);
    }
  }
  // Truncated output: close what is open so a nearly complete object still parses.
  return text.slice(start) + stack.reverse().join('');
}

const LITERALS: Record<string, string> = { True: 'true', False: 'false', None: 'null' };

/** Re-emits the text as strict JSON: double-quoted strings and keys, no trailing commas. */
export function repairJson(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'" || ch === '\u201c' || ch === '\u2018') {
      const [value, next] = readString(text, i);
      out += JSON.stringify(value);
      i = next;
    } else if (ch === ',') {
      const rest = text.slice(i + 1).trimStart();
      if (!rest.startsWith('}') && !rest.startsWith(']')) out += ',';
      i++;
    } else if (/[A-Za-z_$]/.test(ch)) {
      const word = /^[A-Za-z_$][\w$-]*/.exec(text.slice(i))![0];
      const after = text.slice(i + word.length).trimStart();
      if (after.startsWith(':')) out += JSON.stringify(word);
      else out += LITERALS[word] ?? word;
      i += word.length;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

const CLOSING: Record<string, string> = { '"': '"', "'": "'", '\u201c': '\u201d', '\u2018': '\u2019' };

function readString(text: string, start: number): [string, number] {
  const open = text[start]!;
  const close = CLOSING[open] ?? open;
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      const esc = text[i + 1]!;
      const decoded = ESCAPES[esc];
      if (esc === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
        continue;
      }
      value += decoded ?? esc;
      i += 2;
      continue;
    }
    if (ch === close || (close !== open && ch === open)) return [value, i + 1];
    value += ch;
    i++;
  }
  return [value, i];
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };
