import { ROW_ERROR_VALUE_CHARS, type RowError, type RowLearner } from '@fundi/domain/imports';
import type { CellError, Cells } from './import-kind.js';

/** Whom a row names, from its own cells: the name columns and the ID number (docs/api.md, "Imports"). */
export function learnerOfRow(cells: Cells): RowLearner | undefined {
  const name = [cells.first_name, cells.last_name].filter((p) => p !== undefined).join(' ') || null;
  const ref = cells.id_number ?? cells.learner_id;
  const idNumber = ref !== undefined && /^\d{13}$/.test(ref) ? ref : null;
  return name || idNumber ? { name, idNumber } : undefined;
}

/** A row's cell errors as stored: each with the cell's value (cut short) and the learner the row names. */
export function rowErrors(row: number, cells: Cells, errors: readonly CellError[]): RowError[] {
  const learner = learnerOfRow(cells);
  return errors.map((e) => {
    const out: RowError = { row, field: e.column, error: e.error };
    const v = cells[e.column];
    if (v !== undefined) out.value = v.length > ROW_ERROR_VALUE_CHARS ? `${v.slice(0, ROW_ERROR_VALUE_CHARS)}…` : v;
    if (learner) out.learner = learner;
    return out;
  });
}
