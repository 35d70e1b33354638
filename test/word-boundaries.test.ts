import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * JavaScript's `\b` knows only ASCII word characters, with or without the `u` flag: in
 * `/at[ée]\b/` the "é" of "até" is no word character, so "até 20/10" has no boundary after it and
 * never matched ("Ofertas até 20/10" had no validity; "1 c. à café de sel" was a cup). Beside a
 * letter that may be accented, the end of a word is `(?![\p{L}\p{N}])` (and its start
 * `(?<![\p{L}\p{N}])`). This test finds every `\b` in the sources that stands beside such a letter.
 */
const SOURCES = path.resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

const NON_ASCII = /[^\p{ASCII}]/u;
const QUANTIFIER = /[?*+]/u;

/** The bracket or parenthesis that opens the one closing at `end`, searching backwards. */
function openerBefore(text: string, end: number, open: string, close: string): number {
  let depth = 0;
  for (let i = end; i >= 0; i -= 1) {
    if (text[i - 1] === '\\') continue;
    if (text[i] === close) depth += 1;
    else if (text[i] === open && --depth === 0) return i;
  }
  return 0;
}

/** The closer of the bracket or parenthesis opening at `start`. */
function closerAfter(text: string, start: number, open: string, close: string): number {
  let depth = 0;
  for (let i = start; i < text.length; i += 1) {
    if (text[i - 1] === '\\') continue;
    if (text[i] === open) depth += 1;
    else if (text[i] === close && --depth === 0) return i;
  }
  return text.length - 1;
}

/** The atom that ends right before `at` (quantifiers skipped), and the one before it while it may match nothing. */
function atomsBefore(text: string, at: number): string[] {
  let end = at;
  let optional = false;
  while (end > 0 && QUANTIFIER.test(text[end - 1]!)) optional ||= text[--end] !== '+';
  if (text[end - 1] === '}') {
    const open = text.lastIndexOf('{', end);
    optional ||= text[open + 1] === '0';
    end = open;
  }
  const last = text[end - 1];
  if (last === undefined) return [];
  const start =
    last === ']'
      ? openerBefore(text, end - 1, '[', ']')
      : last === ')'
        ? openerBefore(text, end - 1, '(', ')')
        : end - 1;
  return [text.slice(start, end), ...(optional ? atomsBefore(text, start) : [])];
}

/** The atom that starts at `at`, and the one after it while it may match nothing. */
function atomsAfter(text: string, at: number): string[] {
  const first = text[at];
  if (first === undefined) return [];
  const end =
    first === '['
      ? closerAfter(text, at, '[', ']') + 1
      : first === '('
        ? closerAfter(text, at, '(', ')') + 1
        : at + (first === '\\' ? 2 : 1);
  const optional = text[end] === '?' || text[end] === '*' || text.startsWith('{0', end);
  const next = optional ? text.indexOf(text[end] === '{' ? '}' : text[end]!, end) + 1 : end;
  return [text.slice(at, end), ...(optional ? atomsAfter(text, next) : [])];
}

/** A group's top-level alternatives. */
function alternatives(group: string): string[] {
  const inner = group.slice(1, -1).replace(/^\?(?::|<?[=!]|<\w+>)/u, '');
  const found: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of inner) {
    if (ch === '(' || ch === '[') depth += 1;
    if (ch === ')' || ch === ']') depth -= 1;
    if (ch === '|' && depth === 0) {
      found.push(current);
      current = '';
    } else current += ch;
  }
  return [...found, current].filter(Boolean);
}

/** Whether one of the atoms may match a character outside ASCII at its `edge`. */
function mayBeNonAscii(atoms: string[], edge: 'first' | 'last'): boolean {
  return atoms.some((atom) =>
    atom.startsWith('(')
      ? alternatives(atom).some((alt) =>
          mayBeNonAscii(edge === 'last' ? atomsBefore(alt, alt.length) : atomsAfter(alt, 0), edge),
        )
      : NON_ASCII.test(atom),
  );
}

function boundariesBesideNonAscii(source: string): string[] {
  const found: string[] = [];
  source.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/(?<!\\)\\b/gu)) {
      const at = match.index;
      if (mayBeNonAscii(atomsBefore(line, at), 'last') || mayBeNonAscii(atomsAfter(line, at + 2), 'first'))
        found.push(`${index + 1}: …${line.slice(Math.max(0, at - 30), at + 30).trim()}…`);
    }
  });
  return found;
}

describe('word boundaries', () => {
  it('finds a \\b beside a letter that may be accented (the check itself)', () => {
    expect(boundariesBesideNonAscii(String.raw`/\bat[ée]\b/u`)).toHaveLength(1);
    expect(boundariesBesideNonAscii(String.raw`/(?:de|até)\b/u`)).toHaveLength(1);
    expect(boundariesBesideNonAscii(String.raw`/\bà volonté/u`)).toHaveLength(1);
    expect(boundariesBesideNonAscii(String.raw`/\bcaf[ée]s?\b/u`)).toHaveLength(1);
    expect(boundariesBesideNonAscii(String.raw`/\bstück\b|\bcafe\b/u`)).toEqual([]);
    expect(boundariesBesideNonAscii(String.raw`/at[ée](?![\p{L}\p{N}])/u`)).toEqual([]);
  });

  it('no pattern in the sources ends or starts a word with \\b beside a non-ASCII letter', () => {
    const offending = sourceFiles(SOURCES).flatMap((file) =>
      boundariesBesideNonAscii(readFileSync(file, 'utf8')).map(
        (line) => `${path.relative(SOURCES, file)}:${line}`,
      ),
    );
    expect(offending).toEqual([]);
  });
});
