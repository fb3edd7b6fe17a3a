import type { PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { LogbookRepos } from '@fundi/domain/logbooks';
import type { TrainingRepos } from '@fundi/domain/training';
import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { ChangeRecord } from '../common/record-change.js';
import type { CellRule } from './cell-values.js';
import type { MessageDue } from './import-messages.js';

/**
 * What every import kind may read and write; a kind names what else it needs (`R` of its `ImportKind`), which the
 * service's unit of work hands out with every capability's repositories.
 */
export type ImportKindRepos = LearnerRepos & TrainingRepos & PlatformRepos & LogbookRepos;

export interface ImportColumn {
  name: string;
  required: boolean;
  /** The value of the template's example row. */
  example: string;
  /** Other header names accepted for this column (the spec's spellings). */
  aliases?: readonly string[];
  /** How a cell of the column is read as people write it (dates, codes by meaning), before the API's rules. */
  cell?: CellRule;
  /** The values the column takes, each with its meaning (listed on the .xlsx template's second sheet). */
  codes?: Readonly<Record<string, string>>;
  /** A date column (the .xlsx template formats it as a date; every other column as text). */
  date?: boolean;
}

/** A problem with one cell (`column`) of a row, or with the row as a whole (`row`). */
export interface CellError {
  column: string;
  error: string;
}

export type Checked<T> = { ok: T } | { errors: CellError[] };

/** Cells by canonical column name; empty cells are left out (not given). */
export type Cells = Readonly<Record<string, string>>;

/**
 * One type of import (docs/api.md, "Imports"): its columns and, per row, the API's own validators. A kind is made
 * per run: it may cache what it looked up (programmes by code). `V` is a row checked on its own, `W` the row
 * resolved against the tenant's data, ready to write.
 */
export interface ImportKind<V, W, R extends object = ImportKindRepos> {
  /** The import's `type` (`learners`): one capability offers it. */
  type: string;
  columns: readonly ImportColumn[];
  /** The tables it grows, whose planner statistics are kept current while it runs (`ImportKinds.tables`). */
  tables?: readonly string[];
  /** Groups of columns of which the header must hold at least one (`id_number` or `learner_id`). */
  anyOf: readonly (readonly string[])[];
  /** The row on its own: every field rule of the API. */
  parse(cells: Cells, now: Date): Checked<V>;
  /** Keys that must be unique within the file (`id_number`, email case-insensitive). */
  uniqueKeys(v: V): { column: string; key: string; what: string }[];
  /** The same keys read from the cells of a row that failed `parse`, so its duplicates show in the same report. */
  cellKeys?(cells: Cells): { column: string; key: string; what: string }[];
  /** Against the tenant's current data: references exist, no duplicates, the training rules. */
  resolve(repos: R, actor: Actor, v: V, now: Date): Promise<Checked<W>>;
  /**
   * Keys that must be unique within the file once rows are resolved (one learner named by ID number in one row
   * and by email in another); checked in row order, the first row wins.
   */
  resolvedKeys?(w: W): { column: string; key: string; what: string }[];
  /** `resolve` for many rows with a few queries (same answers, in the same order), where the kind has it. */
  resolveMany?(repos: R, actor: Actor, vs: readonly V[], now: Date): Promise<Checked<W>[]>;
  /**
   * The learner messages writing the row would lead to (welcome, result), for the dry run's count; absent: none.
   * `history` is the first date an assessment may have and still message its learner.
   */
  messagesDue?(repos: R, tenantId: string, w: W, history: string): Promise<MessageDue[]>;
  /** Writes resolved rows through one transaction's repositories; returns the events the API raises for each. */
  write(tx: R, actor: Actor, now: Date, rows: readonly W[]): Promise<ChangeRecord['events'] & {}>;
}

// biome-ignore lint/suspicious/noExplicitAny: each kind has its own row types; the walk only passes them on.
export type AnyKind = ImportKind<any, any, any>;

declare module '../common/hooks.js' {
  interface Hooks {
    /**
     * The import kinds a capability offers, each made afresh per run (docs/architecture.md, "A capability's
     * anatomy").
     */
    importKinds: readonly (() => AnyKind)[];
  }
}

/** `homeAddress.postalCode` -> `home_address_postal_code`. */
export function snake(field: string): string {
  return field.replace(/\./g, '_').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Runs a domain parser, turning its field errors into cell errors (fields renamed to columns by `columnOf`). */
export function cellErrors(e: unknown, columnOf: (field: string) => string = snake): CellError[] {
  if (!(e instanceof DomainError) || e.kind !== 'invalid') throw e;
  if (!e.details.length) return [{ column: 'row', error: e.message }];
  return e.details.map((d) => ({ column: columnOf(d.field), error: d.message }));
}

/** Finds the learner a row names: `learner_id` (a learner id, an ID number or an email) or `id_number`. */
export interface LearnerRef {
  column: 'id_number' | 'learner_id';
  value: string;
}

export function learnerRefOf(cells: Cells): Checked<LearnerRef> {
  if (cells.id_number !== undefined) return { ok: { column: 'id_number', value: cells.id_number } };
  if (cells.learner_id !== undefined) return { ok: { column: 'learner_id', value: cells.learner_id } };
  return { errors: [{ column: 'id_number', error: 'is required (or learner_id)' }] };
}

export async function findLearner(repos: LearnerRepos, tenantId: string, ref: LearnerRef) {
  const v = ref.value;
  if (ref.column === 'id_number' || /^\d{13}$/.test(v)) return repos.learners.findByIdNumber(tenantId, v);
  if (v.includes('@')) return repos.learners.findByEmail(tenantId, v);
  return repos.learners.findById(tenantId, v);
}

/** The message does not repeat the value: the error's `value` carries it (removed on erasure). */
export const unknownLearner = (ref: LearnerRef): CellError => ({
  column: ref.column,
  error: `names no learner of this organisation (import the learners first)`,
});
