import { DomainError, newId } from '@fundi/domain';
import { IMPORT_BATCH_ROWS, type ImportSnapshot, type RowError } from '@fundi/domain/imports';
import type { JobContext } from '../jobs/job-definition.js';
import { recordChange } from '../common/record-change.js';
import type { ImportDeps, ImportJobPayload } from './import-ports.js';
import { resolveRows, walkFile, type AnyKind, type WalkedRow } from './import-walk.js';
import { importActor } from './validate-import.js';
import { rowErrors } from './row-errors.js';
import { InOrder } from './in-order.js';

/** How often a batch is tried again when a row met a conflict at write time (a learner created meanwhile). */
const CONFLICT_RETRIES = 3;

/**
 * The confirm (job `imports.confirm`): reads the file again, re-checks every row against the tenant's current
 * data, and writes the valid rows in batches of 1,000 data rows. Each batch is one transaction: its rows, their
 * events, one audit entry, its errors and `processed` (compared with the value it started from, so a second runner
 * of the same batch writes nothing). A run after a crash skips the rows of committed batches, re-reading them only
 * for the file's own duplicate checks: every valid row is written exactly once.
 */
export class WriteImport {
  constructor(private readonly d: ImportDeps) {}

  /**
   * The last attempt failed for a reason of the system, not of the file (the stored file gone, the database
   * refusing): the import becomes `failed` with that said, instead of staying `importing` with no job left to
   * finish it. The batches already committed stay written; the error says how far it got, and uploading the file
   * again imports the rest (the rows written now report as duplicates).
   */
  async giveUp(p: ImportJobPayload, reason: string): Promise<void> {
    const imp = await this.d.repos.imports.findById(p.tenantId, p.importId);
    if (imp?.status !== 'importing') return;
    const error = {
      row: 1,
      field: 'file',
      error: `the import stopped (${reason}) after ${imp.processed} of ${imp.totalRows} rows, ${imp.importedRows} of them written; upload the file again to import the rest`,
    };
    await this.d.uow.run(async (tx) => {
      await tx.imports.addErrors(imp.id, imp.errorCount, [error]);
      await tx.imports.transition(imp.tenantId, imp.id, 'importing', 'failed', {
        errorCount: imp.errorCount + 1,
        completedAt: this.d.clock.now().toISOString(),
      });
    });
  }

  async execute(p: ImportJobPayload, ctx?: Pick<JobContext, 'signal'>): Promise<void> {
    let imp = await this.d.repos.imports.findById(p.tenantId, p.importId);
    if (imp?.status !== 'importing') return;
    const kind = this.d.kinds.make(imp.type);
    const now = this.d.clock.now();
    let batch: WalkedRow[] = [];
    let header: RowError[] = [];
    const refresh = async () => this.d.maintenance?.refreshStatistics(this.d.kinds.tables);
    await refresh();
    // Rows up to here were written by an earlier run (committed batches): they are read again, not written.
    const skip = imp.processed;
    // The batch being written while the walk reads the next one (docs/performance.md, "Imports on Postgres"): the
    // batches still commit one after the other, each after the one before, so `processed` and the errors' places
    // advance in file order; the walk waits for a batch before the one it hands over, never more than two in memory.
    const writing = new InOrder();
    const write = (rows: WalkedRow[], upTo: number) =>
      writing.queue(async () => {
        imp = await this.commit(imp!, kind, rows, upTo, header);
        // The batches grow the tables the next batches look rows up in: the planner learns their size as they grow.
        await refresh();
      });
    let end: Awaited<ReturnType<typeof walkFile>>;
    try {
      end = await walkFile(
        this.d.csv,
        await this.d.files.open(imp.fileKey),
        kind,
        now,
        (r) => {
          if (r.n <= skip) return;
          batch.push(r);
          if (batch.length < IMPORT_BATCH_ROWS) return;
          if (ctx?.signal.aborted) throw new Error('import stopped: the worker is shutting down or lost the job');
          const rows = batch;
          batch = [];
          return write(rows, r.n);
        },
        async (errors) => void (header = errors),
        imp.columnMap,
        imp.sheet,
      );
    } catch (e) {
      // The batch in flight ends (committed or not) before the job reports its failure.
      await writing.settled().catch(() => {});
      throw e;
    }
    await writing.settled();
    if (end.fatal) throw new Error(`the stored file of import ${imp.id} cannot be read again`);
    if (batch.length || imp.processed < end.dataRows) imp = await this.commit(imp, kind, batch, end.dataRows, header);
    await this.complete(imp, end.dataRows);
  }

  /** One batch in one transaction; the first also replaces the dry run's errors, starting with the header's. */
  private async commit(
    imp: ImportSnapshot,
    kind: AnyKind,
    rows: WalkedRow[],
    upTo: number,
    header: RowError[],
  ): Promise<ImportSnapshot> {
    const actor = importActor(imp, imp.confirmedBy ?? imp.createdBy);
    for (let attempt = 1; ; attempt++) {
      const now = this.d.clock.now();
      const good: { row: number; item: unknown }[] = [];
      let bad = 0;
      const first = imp.processed === 0;
      const errors: RowError[] = first ? [...header] : [];
      const answers = await resolveRows(kind, this.d.repos, actor, rows, now);
      answers.forEach((c, i) => {
        const row = rows[i]!.row;
        if ('ok' in c) good.push({ row, item: c.ok });
        else {
          bad++;
          errors.push(...rowErrors(row, rows[i]!.cells, c.errors));
        }
      });
      const counts = {
        processed: upTo,
        importedRows: imp.importedRows + good.length,
        validRows: imp.importedRows + good.length,
        rowsWithErrors: (first ? 0 : imp.rowsWithErrors) + bad,
        errorCount: (first ? 0 : imp.errorCount) + errors.length,
      };
      try {
        await this.d.uow.run(async (tx) => {
          if (!(await tx.imports.recordProgress(imp.tenantId, imp.id, 'importing', counts, imp.processed)))
            throw new DomainError('conflict', 'import_batch_taken', 'Another run committed this batch');
          if (first) await tx.imports.clearErrors(imp.id);
          await tx.imports.addErrors(imp.id, counts.errorCount - errors.length, errors);
          if (!good.length) return;
          const events = await kind.write(
            tx,
            actor,
            now,
            good.map((g) => g.item),
          );
          await recordChange(tx, actor, now, {
            action: 'import.rows_written',
            resourceType: 'import',
            resourceId: imp.id,
            details: { type: imp.type, rows: good.length, fromRow: good[0]!.row, toRow: good.at(-1)!.row },
          });
          const at = now.toISOString();
          await tx.outbox.addMany(
            events.map((e) => ({
              id: newId('evt'),
              tenantId: actor.tenantId,
              type: e.type,
              occurredAt: at,
              // Marked as the import's, so a receiver can tell; with `notify: none` no trigger reacts to it.
              data: { ...e.data, source: 'import', ...(imp.notify === 'none' ? { notify: 'none' } : {}) },
              ...(e.subjectId ? { subjectId: e.subjectId } : {}),
            })),
          );
        });
        return { ...imp, ...counts };
      } catch (e) {
        if (!(e instanceof DomainError) || e.kind !== 'conflict' || e.code === 'import_batch_taken') throw e;
        if (attempt >= CONFLICT_RETRIES) throw e;
      }
    }
  }

  private async complete(imp: ImportSnapshot, totalRows: number): Promise<void> {
    const now = this.d.clock.now();
    const actor = importActor(imp, imp.confirmedBy ?? imp.createdBy);
    await this.d.uow.run(async (tx) => {
      const at = now.toISOString();
      if (!(await tx.imports.transition(imp.tenantId, imp.id, 'importing', 'completed', { completedAt: at }))) return;
      const data = {
        importId: imp.id,
        type: imp.type,
        fileName: imp.fileName,
        totalRows,
        importedRows: imp.importedRows,
        invalidRows: totalRows - imp.importedRows,
        errorCount: imp.errorCount,
        completedAt: at,
      };
      await recordChange(tx, actor, now, {
        action: 'import.completed',
        resourceType: 'import',
        resourceId: imp.id,
        details: { type: imp.type, totalRows, importedRows: imp.importedRows },
        events: [{ type: 'import.completed', data }],
      });
    });
  }
}
