import type { Scope } from '@fundi/domain';
import type { ExportFilters, ExportFormat } from '@fundi/domain/exports';
import type { SystemActor } from '../common/actor.js';
import { csvChunks, type Counter } from './csv-chunks.js';

/** One CSV cell's value. */
export type Cell = string | number | boolean | null;
/** How a CSV column reads its cell from a row. */
export type Column<R> = (row: R) => Cell;

/** The filters as a type's reader gets them: the request's, with the code of the programme it names. */
export interface ResolvedFilters extends ExportFilters {
  programmeCode?: string;
}

/** The service's own actors by id (`systemActorsOf`), for rows that show who acted. */
export type SystemActors = ReadonlyMap<string, SystemActor>;

/** The CSV of a contributed type, its rows read only by the capability that contributes it. */
export interface ExportCsv<R extends object = object> {
  /** Every column a request may choose, in default order. */
  columns: readonly string[];
  /** The columns of a request that chooses none. */
  defaults: readonly string[];
  /** The CSV (BOM, header, CRLF records) of `fields` over the rows `f` selects, in chunks; counts the data rows. */
  chunks(
    repos: R,
    tenantId: string,
    f: ResolvedFilters,
    fields: readonly string[],
    count: Counter,
    system: SystemActors,
  ): AsyncGenerator<Buffer>;
  /** The rows the CSV will hold, counted before it is written (a progress bar's end); null when not known. */
  total?(repos: R, tenantId: string, f: ResolvedFilters): Promise<number | null>;
}

/**
 * A type of export (docs/architecture.md, "A capability's anatomy"): a capability offers its own as
 * `offers.exportTypes`, and the exports capability runs every offered type, in the capability list's order. `R` is
 * the repositories its reader reads (the service's unit of work hands out every capability's).
 */
export interface ExportTypeDef<R extends object = object> {
  /** The request's `type` (`learners`): one capability offers it. */
  name: string;
  format: ExportFormat;
  /** Its name in the dashboard's list of exports. */
  label: string;
  /** What `filters.status` selects (its values), and how the API describes that filter. */
  status?: { values: readonly string[]; described: string };
  /** Its name where the API describes the status filter, when it differs (`qcto` for both QCTO files). */
  describedAs?: string;
  /** The scope an actor also needs to request it (the audit trail is for those who may read it). */
  scope?: Scope;
  /** `filters.learnerIds` selects its rows (a learners export of a selection). */
  selection?: boolean;
  /** Its CSV; absent for the files the exports capability writes itself (regulator files, the full ZIP). */
  csv?: ExportCsv<R>;
  /** Its file in the full export (`learners.csv`), when the full export holds it. */
  inFull?: string;
  /** Only the full export holds it: no request names it (the logbook entries). */
  fullOnly?: boolean;
}

/** What a capability writes to describe a CSV type: its columns over its own rows, and its reader. */
export interface CsvTypeSpec<R extends object, Row> extends Omit<ExportTypeDef<R>, 'csv' | 'format'> {
  columns: Readonly<Record<string, Column<Row>>>;
  /** Columns left out of the defaults (they cost a read per row). */
  costly?: readonly string[];
  /** Each page of the rows `f` selects; `fields` are the chosen columns (a reader may skip what none needs). */
  rows(
    repos: R,
    tenantId: string,
    f: ResolvedFilters,
    fields: readonly string[],
    system: SystemActors,
  ): AsyncIterable<Row[]>;
  total?(repos: R, tenantId: string, f: ResolvedFilters): Promise<number | null>;
}

/** A CSV export type from its columns and its reader (the columns are checked against the rows it reads). */
export function csvExportType<R extends object, Row>(spec: CsvTypeSpec<R, Row>): ExportTypeDef<R> {
  const { columns, costly = [], rows, total, ...rest } = spec;
  const names = Object.keys(columns);
  return {
    ...rest,
    format: 'csv',
    csv: {
      columns: names,
      defaults: names.filter((c) => !costly.includes(c)),
      chunks: (repos, tenantId, f, fields, count, system) =>
        csvChunks(columns, fields, rows(repos, tenantId, f, fields, system), count),
      ...(total ? { total } : {}),
    },
  };
}

declare module '../common/hooks.js' {
  interface Hooks {
    /** The export types a capability offers (docs/architecture.md, "A capability's anatomy"). */
    exportTypes: readonly ExportTypeDef[];
  }
}
