import { UNSAFE_TEXT_MESSAGE, isSafeText } from '@fundi/domain';
import type { RowError } from '@fundi/domain/imports';
import type { CellError, Cells, ImportKind } from './import-kind.js';
import { looseKey, type CellRule } from './cell-values.js';
import { HEADER_ALIASES } from './header-aliases.js';

/** Which canonical column each header cell is (null: unknown, ignored), and what was wrong with the header. */
export interface Header {
  columns: (string | null)[];
  /** Each column's way of reading its cells, where it has one. */
  rules: (CellRule | undefined)[];
  errors: RowError[];
  /** A required column is missing or named twice: no row can be read. */
  fatal: boolean;
  /**
   * The header's known columns in its order, each unset: a row's cells are a copy of it, filled (one object of one
   * shape a row, where adding each cell grew the object's storage again and again).
   */
  noCells: Readonly<Record<string, string | undefined>>;
}

/**
 * Reads row 1: names are matched ignoring case, spaces and punctuation, by the column's name, its kind's spellings,
 * the names people write (`HEADER_ALIASES`) and the tenant's mapping (`mapping`, by header name); unknown columns
 * are reported with the nearest known names and ignored.
 */
export function readHeader(
  kind: ImportKind<unknown, unknown>,
  cells: string[],
  mapping: Readonly<Record<string, string>> = {},
): Header {
  const names = headerNames(kind);
  const byName = new Map(names);
  for (const [from, to] of Object.entries(mapping)) byName.set(looseKey(from), to);
  const ruleOf = new Map(kind.columns.map((c) => [c.name, c.cell]));
  const errors: RowError[] = [];
  let fatal = false;
  const seen = new Set<string>();
  const columns = cells.map((raw, i) => {
    const name = looseKey(raw);
    const col = byName.get(name) ?? null;
    if (!name)
      errors.push({ row: 1, field: `column ${i + 1}`, error: 'has no name in the header; its cells are ignored' });
    else if (!isSafeText(raw))
      errors.push({
        row: 1,
        field: `column ${i + 1}`,
        error: `its name ${UNSAFE_TEXT_MESSAGE}; its cells are ignored`,
      });
    else if (!col)
      errors.push({
        row: 1,
        field: raw.trim(),
        error: unknownColumn(kind, names, name),
      });
    else if (seen.has(col)) {
      errors.push({ row: 1, field: raw.trim(), error: `column ${col} appears twice` });
      fatal = true;
    }
    if (col) seen.add(col);
    return col;
  });
  for (const c of kind.columns)
    if (c.required && !seen.has(c.name)) {
      errors.push({ row: 1, field: c.name, error: 'required column is missing from the header row' });
      fatal = true;
    }
  for (const group of kind.anyOf)
    if (!group.some((g) => seen.has(g))) {
      errors.push({ row: 1, field: group[0]!, error: `the header needs one of the columns ${group.join(', ')}` });
      fatal = true;
    }
  const noCells: Record<string, string | undefined> = {};
  for (const c of columns) if (c) noCells[c] = undefined;
  return { columns, rules: columns.map((c) => (c ? ruleOf.get(c) : undefined)), errors, fatal, noCells };
}

/** Every name a kind's columns are known by, as loose keys, with its column: own names first, then aliases. */
function headerNames(kind: ImportKind<unknown, unknown>): [string, string][] {
  const own = kind.columns.flatMap((c) => [c.name, ...(c.aliases ?? [])].map((n): [string, string] => [n, c.name]));
  const people = kind.columns.flatMap((c) => (HEADER_ALIASES[c.name] ?? []).map((n): [string, string] => [n, c.name]));
  const out = new Map<string, string>();
  for (const [n, c] of [...own, ...people]) if (!out.has(looseKey(n))) out.set(looseKey(n), c);
  return [...out];
}

/** Edits (insert, delete, replace) from `a` to `b`. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

const UNKNOWN = 'unknown column, ignored';

/** The header names of a report's unknown columns, each with the known columns suggested for it (nearest first). */
export function unknownHeadersOf(errors: readonly RowError[]): { header: string; suggestions: string[] }[] {
  return errors
    .filter((e) => e.row === 1 && e.error.startsWith(UNKNOWN))
    .map((e) => ({
      header: e.field,
      suggestions: /did you mean (.+?)\? /.exec(e.error)?.[1]?.split(' or ') ?? [],
    }));
}

/** The unknown-column error, with the known columns whose names are nearest (a few edits, or one inside the other). */
function unknownColumn(kind: ImportKind<unknown, unknown>, names: [string, string][], name: string): string {
  const near = names
    .map(([n, c]) => ({ c, d: name.length >= 4 && (n.includes(name) || name.includes(n)) ? 1 : distance(name, n) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(name.length / 3)))
    .sort((a, b) => a.d - b.d);
  const suggest = [...new Set(near.map((x) => x.c))].slice(0, 3);
  return suggest.length
    ? `${UNKNOWN}; did you mean ${suggest.join(' or ')}? (or map it with options.columns)`
    : `${UNKNOWN} (none of the ${kind.type} columns is like it; see GET /imports/templates/${kind.type}, or map it with options.columns)`;
}

const NO_ERRORS: readonly CellError[] = Object.freeze([]);

/**
 * A data row's cells by column (trimmed; empty ones left out), with what is wrong with them: a blank row or one with
 * too many cells is unreadable as a whole (`row`, no cells); a cell breaking the API's text rule is named by its
 * column and left out, so the row's other cells are still checked. Each cell is read by its column's rule (a date
 * as people write it, a code by its meaning).
 */
export function cellsOf(h: Header, cells: string[]): { cells: Cells; errors: readonly CellError[] } {
  let blank = true;
  for (let i = 0; i < cells.length && blank; i++) blank = cells[i]!.trim() === '';
  if (blank) return { cells: {}, errors: [{ column: 'row', error: 'blank row' }] };
  if (cells.length > h.columns.length && cells.slice(h.columns.length).some((c) => c.trim() !== ''))
    return {
      cells: {},
      errors: [{ column: 'row', error: `has ${cells.length} cells but the header has ${h.columns.length} columns` }],
    };
  // A column without a cell stays unset (`undefined`), as if absent: the rules read cells by name.
  const out: Record<string, string | undefined> = { ...h.noCells };
  let errors: CellError[] | null = null;
  for (let i = 0; i < h.columns.length; i++) {
    const col = h.columns[i];
    const v = cells[i]?.trim();
    if (!col || !v) continue;
    if (!isSafeText(v)) {
      (errors ??= []).push({ column: col, error: UNSAFE_TEXT_MESSAGE });
      continue;
    }
    const rule = h.rules[i];
    if (!rule) {
      out[col] = v;
      continue;
    }
    const read = rule(v);
    // A cell that cannot be read keeps its text, so the error can show it; the column's other checks are skipped.
    out[col] = 'ok' in read ? read.ok : v;
    if ('error' in read) (errors ??= []).push({ column: col, error: read.error });
  }
  return { cells: out as Cells, errors: errors ?? NO_ERRORS };
}
