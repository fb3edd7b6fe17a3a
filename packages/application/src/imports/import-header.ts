import { UNSAFE_TEXT_MESSAGE, isSafeText, type RowError } from '@fundi/domain';
import type { CellError, Cells, ImportKind } from './import-kind.js';
import type { CellRule } from './cell-values.js';

/** Which canonical column each header cell is (null: unknown, ignored), and what was wrong with the header. */
export interface Header {
  columns: (string | null)[];
  /** Each column's way of reading its cells, where it has one. */
  rules: (CellRule | undefined)[];
  errors: RowError[];
  /** A required column is missing or named twice: no row can be read. */
  fatal: boolean;
}

/** Reads row 1: names are matched case-insensitively; unknown columns are reported and ignored. */
export function readHeader(kind: ImportKind<unknown, unknown>, cells: string[]): Header {
  const byName = new Map<string, string>();
  for (const c of kind.columns) for (const n of [c.name, ...(c.aliases ?? [])]) byName.set(n, c.name);
  const ruleOf = new Map(kind.columns.map((c) => [c.name, c.cell]));
  const errors: RowError[] = [];
  let fatal = false;
  const seen = new Set<string>();
  const columns = cells.map((raw, i) => {
    const name = raw.trim().toLowerCase().replace(/\s+/g, '_');
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
        error: `unknown column, ignored (the ${kind.type} columns are ${kind.columns.map((c) => c.name).join(', ')})`,
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
  return { columns, rules: columns.map((c) => (c ? ruleOf.get(c) : undefined)), errors, fatal };
}

/**
 * A data row's cells by column (trimmed; empty ones left out), with what is wrong with them: a blank row or one with
 * too many cells is unreadable as a whole (`row`, no cells); a cell breaking the API's text rule is named by its
 * column and left out, so the row's other cells are still checked. Each cell is read by its column's rule (a date
 * as people write it, a code by its meaning).
 */
export function cellsOf(h: Header, cells: string[]): { cells: Cells; errors: CellError[] } {
  if (cells.every((c) => c.trim() === '')) return { cells: {}, errors: [{ column: 'row', error: 'blank row' }] };
  if (cells.length > h.columns.length && cells.slice(h.columns.length).some((c) => c.trim() !== ''))
    return {
      cells: {},
      errors: [{ column: 'row', error: `has ${cells.length} cells but the header has ${h.columns.length} columns` }],
    };
  const out: Record<string, string> = {};
  const errors: CellError[] = [];
  for (let i = 0; i < h.columns.length; i++) {
    const col = h.columns[i];
    const v = cells[i]?.trim();
    if (!col || !v) continue;
    if (!isSafeText(v)) {
      errors.push({ column: col, error: UNSAFE_TEXT_MESSAGE });
      continue;
    }
    const rule = h.rules[i];
    const read = rule ? rule(v) : { ok: v };
    // A cell that cannot be read keeps its text, so the error can show it; the column's other checks are skipped.
    out[col] = 'ok' in read ? read.ok : v;
    if ('error' in read) errors.push({ column: col, error: read.error });
  }
  return { cells: out, errors };
}
