import { DomainError } from '@fundi/domain';
import type { LearnerSnapshot } from '@fundi/domain/learners';
import type { Binding, SqlDb } from '../db/sql-db.js';
import { bulkChunks } from '../db/bulk-chunks.js';
import { mapUnique } from '../db/conflicts.js';
import { LEARNER_COLUMNS, learnerToRow, putLearnerValues } from './learner-rows.js';

/** The learners' unique keys (ID number, alternative ID, email), each as the conflict a write that breaks it gets. */
export const LEARNER_UNIQUE = [
  {
    column: 'id_number',
    error: () =>
      DomainError.conflict('duplicate_id_number', 'A learner with this ID number already exists', [
        { field: 'idNumber', message: 'is already registered' },
      ]),
  },
  {
    column: 'alternate_id',
    error: () =>
      DomainError.conflict('duplicate_alternate_id', 'A learner with this alternative ID already exists', [
        { field: 'alternateId', message: 'is already registered with this alternateIdType' },
      ]),
  },
  {
    column: 'email_lower',
    error: () =>
      DomainError.conflict('duplicate_email', 'A learner with this email already exists', [
        { field: 'email', message: 'is already registered' },
      ]),
  },
];

const INSERT = `INSERT INTO learners (${LEARNER_COLUMNS.join(', ')}) VALUES (${LEARNER_COLUMNS.map(() => '?').join(', ')})`;
/** Rows per multi-row INSERT: under SQLite's bound-parameter limit (32,766) at every column. */
const MAX_INSERT_ROWS = 500;
const ROW_PLACEHOLDERS = `(${LEARNER_COLUMNS.map(() => '?').join(', ')})`;
const INSERT_ROWS = new Map<number, string>();
function insertRows(n: number): string {
  let sql = INSERT_ROWS.get(n);
  if (sql === undefined) {
    sql = `INSERT INTO learners (${LEARNER_COLUMNS.join(', ')}) VALUES ${Array(n).fill(ROW_PLACEHOLDERS).join(', ')}`;
    INSERT_ROWS.set(n, sql);
  }
  return sql;
}
/** Writes one learner; a taken ID number, alternative ID or email is the conflict of `LEARNER_UNIQUE`. */
export async function insertLearner(db: SqlDb, l: LearnerSnapshot): Promise<void> {
  const row = learnerToRow(l);
  await mapUnique(db.dialect, LEARNER_UNIQUE, () =>
    db.run(
      INSERT,
      LEARNER_COLUMNS.map((c) => row[c]),
    ),
  );
}

/** Each learner's values in `LEARNER_COLUMNS` order, in one array filled again for each (read before the next). */
function* learnerValues(ls: readonly LearnerSnapshot[]): Generator<readonly Binding[]> {
  const values: Binding[] = new Array(LEARNER_COLUMNS.length);
  for (const l of ls) {
    putLearnerValues(l, values, 0);
    yield values;
  }
}

/** Writes many learners (an import's batch) in a few statements, each row as `insertLearner` would. */
export async function insertLearners(db: SqlDb, ls: readonly LearnerSnapshot[]): Promise<void> {
  const { dialect } = db;
  const copyRows = db.copyRows?.bind(db);
  if (copyRows) {
    // One bulk load of the whole batch where the database has one (Postgres' COPY): the JSON rows of an
    // `INSERT ... SELECT` cost the process their text and Postgres their parsing, about twice the load itself
    // (docs/performance.md, "Imports on Postgres").
    await mapUnique(dialect, LEARNER_UNIQUE, () => copyRows('learners', LEARNER_COLUMNS, learnerValues(ls)));
    return;
  }
  const flag = dialect.flag;
  for (const [from, n] of bulkChunks(ls.length, MAX_INSERT_ROWS)) {
    const values: Binding[] = new Array(n * LEARNER_COLUMNS.length);
    for (let i = 0, at = 0; i < n; i++) at = putLearnerValues(ls[from + i]!, values, at, flag);
    await mapUnique(db.dialect, LEARNER_UNIQUE, () => db.run(insertRows(n), values));
  }
}
