import { DomainError, isSafeText } from '@fundi/domain';
import { IMPORT_MAX_SHEET_CHARS, IMPORT_NOTIFY, type ImportNotify } from '@fundi/domain/imports';
import { looseKey } from './cell-values.js';
import type { AnyKind } from './import-kind.js';
import type { ImportKinds } from './import-kinds.js';

/** What an upload asks of an import: its type and options (dry run, notices, header mapping, sheet), checked. */
export interface StartImportInput {
  type: unknown;
  /** JSON text `{"dryRun": boolean, "columns": {header: column}}`; absent = a dry run. */
  options?: unknown;
}

export interface ImportOptions {
  dryRun: boolean;
  notify: ImportNotify;
  /** Header name (as loose key) -> column, or null to forget a saved entry. */
  columns: Record<string, string | null>;
  /** The sheet of a workbook to read (null: the first). */
  sheet: string | null;
}

const OPTION_NAMES = ['dryRun', 'notify', 'columns', 'sheet'];

function parseOptions(kind: AnyKind, raw: unknown): ImportOptions {
  if (raw === undefined || raw === '') return { dryRun: true, notify: 'all', columns: {}, sheet: null };
  let v: unknown;
  try {
    v = typeof raw === 'string' ? JSON.parse(raw) : raw;
  } catch {
    throw DomainError.invalid('options', 'must be JSON text such as {"dryRun": false}');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw DomainError.invalid('options', 'must be an object');
  const o = v as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => !OPTION_NAMES.includes(k));
  if (unknown) throw DomainError.invalid(`options.${unknown}`, `is not a known option (${OPTION_NAMES.join(', ')})`);
  if (o.dryRun !== undefined && typeof o.dryRun !== 'boolean')
    throw DomainError.invalid('options.dryRun', 'must be true or false');
  if (o.notify !== undefined && !IMPORT_NOTIFY.includes(o.notify as ImportNotify))
    throw DomainError.invalid(
      'options.notify',
      'must be "all" (message new learners) or "none" (history: tell nobody)',
    );
  if (
    o.sheet !== undefined &&
    o.sheet !== null &&
    (typeof o.sheet !== 'string' || !o.sheet.trim() || o.sheet.length > IMPORT_MAX_SHEET_CHARS || !isSafeText(o.sheet))
  )
    throw DomainError.invalid(
      'options.sheet',
      `must be the name of a sheet of the workbook (at most ${IMPORT_MAX_SHEET_CHARS} characters of plain text)`,
    );
  return {
    dryRun: o.dryRun !== false,
    notify: (o.notify as ImportNotify) ?? 'all',
    columns: parseColumns(kind, o.columns),
    sheet: typeof o.sheet === 'string' ? o.sheet.trim() : null,
  };
}

/** `{"Surname": "last_name"}`: each header name to a column of the type, or null to forget a saved entry. */
function parseColumns(kind: AnyKind, raw: unknown): Record<string, string | null> {
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw DomainError.invalid(
      'options.columns',
      'must be an object of header names to columns, such as {"Surname": "last_name"}',
    );
  const known = new Map(kind.columns.map((c) => [looseKey(c.name), c.name]));
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > MAX_MAPPED)
    throw DomainError.invalid('options.columns', `maps at most ${MAX_MAPPED} header names`);
  const out: Record<string, string | null> = {};
  for (const [header, column] of entries) {
    const key = looseKey(header);
    if (!key || header.length > 200 || !isSafeText(header))
      throw DomainError.invalid(
        'options.columns',
        'has a header name that is empty, longer than 200 characters or not plain text',
      );
    if (column === null) {
      out[key] = null;
      continue;
    }
    const to = typeof column === 'string' ? known.get(looseKey(column)) : undefined;
    if (!to)
      throw DomainError.invalid(
        `options.columns.${header}`,
        `must be a ${kind.type} column (${[...known.values()].join(', ')}) or null to forget it`,
      );
    out[key] = to;
  }
  return out;
}

/** Header names one upload may map. */
const MAX_MAPPED = 200;

/** The type (one of the offered kinds) and the options of an upload, checked. */
export function parseRequest(kinds: ImportKinds, input: StartImportInput): { type: string; options: ImportOptions } {
  const type = typeof input.type === 'string' ? input.type : '';
  const kind = kinds.make(type);
  return { type, options: parseOptions(kind, input.options) };
}
