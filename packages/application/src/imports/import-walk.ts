import { IMPORT_MAX_ROWS, type ImportFormat, type RowError } from '@fundi/domain/imports';
import type { Readable } from 'node:stream';
import { CsvFileError, type CsvReader } from './csv-reader.js';
import { cellsOf, readHeader } from './import-header.js';
import { FirstSeen } from './first-seen.js';
import type { Actor } from '../common/actor.js';
import type { AnyKind, CellError, Cells, Checked, ImportKindRepos } from './import-kind.js';

export type { AnyKind };

/** A data row after the checks that need only the file: `n` counts data rows from 1; `cells` its known cells. */
export interface WalkedRow {
  n: number;
  row: number;
  cells: Cells;
  checked: Checked<unknown>;
}

export interface WalkEnd {
  dataRows: number;
  /** How the file was read, once its header row was (null: it never was). */
  format: ImportFormat | null;
  /** Problems of the file as a whole (encoding, size; the header's go to `onHeader`); `fatal`: nothing to import. */
  fileErrors: RowError[];
  fatal: boolean;
}

/**
 * Reads the file once, row by row: header, then each data row checked on its own and for duplicates within the
 * file (the first occurrence wins; later ones name it). Nothing here touches the tenant's data.
 */
export async function walkFile(
  csv: CsvReader,
  source: Readable,
  kind: AnyKind,
  now: Date,
  visit: (r: WalkedRow) => Promise<void> | undefined,
  onHeader: (errors: RowError[]) => Promise<void> = async () => {},
  columnMap: Readonly<Record<string, string>> = {},
  sheet: string | null = null,
): Promise<WalkEnd> {
  const fileErrors: RowError[] = [];
  // Per column, each key with the row it was first seen on: the one structure that grows with the file, so the keys
  // are kept as given (no joined strings).
  const seen = new Map<string, FirstSeen>();
  let header: ReturnType<typeof readHeader> | null = null;
  let n = 0;
  let format: ImportFormat | null = null;
  try {
    for await (const recs of csv.records(source, (f) => void (format = f), sheet))
      for (const rec of recs) {
        if (!header) {
          header = readHeader(kind, rec.cells, columnMap);
          await onHeader(header.errors);
          continue;
        }
        n++;
        if (n > IMPORT_MAX_ROWS) {
          fileErrors.push({ row: rec.row, field: 'file', error: `has more than ${IMPORT_MAX_ROWS} data rows` });
          return { dataRows: n - 1, format, fileErrors, fatal: true };
        }
        // A header no row can be read by: the rows are only counted, so the report says how many the file has.
        if (header.fatal) continue;
        const { cells, errors } = cellsOf(header, rec.cells);
        const checked =
          errors[0]?.column === 'row' ? { errors: [...errors] } : checkRow(kind, seen, rec.row, cells, errors, now);
        // Awaited only when the visitor has work to wait for: most rows are only collected into a batch.
        const pending = visit({ n, row: rec.row, cells, checked });
        if (pending) await pending;
      }
  } catch (e) {
    if (!(e instanceof CsvFileError)) throw e;
    fileErrors.push(e.problem);
    return { dataRows: n, format, fileErrors, fatal: true };
  }
  if (!header) fileErrors.push({ row: 1, field: 'file', error: 'is empty: the first row must be the header' });
  else if (n === 0) fileErrors.push({ row: 2, field: 'file', error: 'has a header row but no data rows' });
  return { dataRows: n, format, fileErrors, fatal: !header || header.fatal || n === 0 };
}

/**
 * Every check of the file on one row, all at once so a row's errors all show the first time: the cells' own errors,
 * the kind's field rules, and the keys that must be unique in the file (taken from the cells when the row failed
 * its rules, where the kind can).
 */
function checkRow(
  kind: AnyKind,
  seen: Map<string, FirstSeen>,
  row: number,
  cells: Cells,
  cellErrors: readonly CellError[],
  now: Date,
): Checked<unknown> {
  const parsed: Checked<unknown> = kind.parse(cells, now);
  // Made only for a row with errors: most rows have none, and these run 100,000 times a file.
  let errors: CellError[] | null = cellErrors.length ? [...cellErrors] : null;
  if ('errors' in parsed) {
    const cellCount = cellErrors.length;
    for (const e of parsed.errors) {
      let own = false;
      for (let i = 0; i < cellCount && !own; i++) own = cellErrors[i]!.column === e.column;
      if (!own) (errors ??= []).push(e);
    }
  }
  const keys = 'ok' in parsed ? kind.uniqueKeys(parsed.ok) : (kind.cellKeys?.(cells) ?? []);
  for (const k of keys) {
    let column = seen.get(k.column);
    if (!column) seen.set(k.column, (column = new FirstSeen()));
    const first = column.firstOr(k.key, row);
    if (first !== undefined && !errors?.some((e) => e.column === k.column))
      (errors ??= []).push({ column: k.column, error: `same ${k.what} as row ${first}` });
  }
  if (!errors) return parsed;
  // Left to right, as the row reads: by the column's place in the header (cells keep the header's order).
  const at = new Map(Object.keys(cells).map((c, i) => [c, i]));
  return { errors: errors.sort((a, b) => (at.get(a.column) ?? -1) - (at.get(b.column) ?? -1)) };
}

/**
 * Each row's final answer against the tenant's data: rows that failed the file checks keep their errors; the rest
 * are resolved in one go where the kind can (`resolveMany`), else 16 at a time (Postgres answers in parallel).
 */
export async function resolveRows(
  kind: AnyKind,
  repos: ImportKindRepos,
  actor: Actor,
  rows: readonly WalkedRow[],
  now: Date,
): Promise<Checked<unknown>[]> {
  const out: Checked<unknown>[] = new Array(rows.length);
  // The rows that passed the file checks: their places, and their values in the same order.
  const places: number[] = [];
  const values: unknown[] = [];
  for (let i = 0; i < rows.length; i++) {
    const c = rows[i]!.checked;
    out[i] = c;
    if ('ok' in c) {
      places.push(i);
      values.push(c.ok);
    }
  }
  if (kind.resolveMany) {
    const got = await kind.resolveMany(repos, actor, values, now);
    for (let k = 0; k < places.length; k++) out[places[k]!] = got[k]!;
  } else
    for (let i = 0; i < places.length; i += 16)
      await Promise.all(
        places
          .slice(i, i + 16)
          .map(async (p, k) => void (out[p] = await kind.resolve(repos, actor, values[i + k], now))),
      );
  if (kind.resolvedKeys) claimKeys(kind, rows, out);
  return out;
}

/** Per run (a kind is made per run): each resolved key with the row that has it. */
const claimed = new WeakMap<AnyKind, Map<string, number>>();

/** Row order decides, whatever order rows were resolved in; a batch resolved again keeps its own rows' keys. */
function claimKeys(kind: AnyKind, rows: readonly WalkedRow[], out: Checked<unknown>[]): void {
  let seen = claimed.get(kind);
  if (!seen) claimed.set(kind, (seen = new Map()));
  rows.forEach((r, i) => {
    const c = out[i]!;
    if (!('ok' in c)) return;
    const dups = [];
    for (const k of kind.resolvedKeys!(c.ok)) {
      const id = `${k.column}\u0000${k.key}`;
      const first = seen.get(id);
      if (first === undefined || first === r.row) seen.set(id, r.row);
      else dups.push({ column: k.column, error: `same ${k.what} as row ${first}` });
    }
    if (dups.length) out[i] = { errors: dups };
  });
}
