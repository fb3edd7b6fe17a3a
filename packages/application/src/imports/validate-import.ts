import type { ImportSnapshot, RowError } from '@fundi/domain/imports';
import { enqueueJob } from '../jobs/job-definition.js';
import type { Actor } from '../common/actor.js';
import { CONFIRM_IMPORT, type ImportDeps, type ImportJobPayload } from './import-ports.js';
import { resolveRows, walkFile, type WalkedRow } from './import-walk.js';
import { rowErrors } from './row-errors.js';
import { historyBefore, MessageTally, type MessageDue } from './import-messages.js';
import { InOrder } from './in-order.js';

/** Rows checked against the tenant's data at a time: few enough that they die young (memory stays flat). */
const CHECK_ROWS = 250;

export const importActor = (i: ImportSnapshot, by: string): Actor => ({
  tenantId: i.tenantId,
  id: by,
  role: 'integration',
  scopes: [],
  via: 'import',
});

/**
 * The dry run (job `imports.validate`): every row is checked as confirm would check it, against the tenant's
 * current data; only the import's counters and errors are written. Run again after a crash, it starts over.
 * With `autoConfirm` a passing file goes on to `importing` in the same transaction.
 */
export class ValidateImport {
  constructor(private readonly d: ImportDeps) {}

  /**
   * The last attempt failed for a reason of the system, not of the file (the stored file unreadable, the database
   * gone): the import becomes `failed` with that said, instead of staying `validating` for ever.
   */
  async giveUp(p: ImportJobPayload, reason: string): Promise<void> {
    const imp = await this.d.repos.imports.findById(p.tenantId, p.importId);
    if (imp?.status !== 'validating') return;
    const error = { row: 1, field: 'file', error: `could not be validated (${reason}); upload it again` };
    await this.d.uow.run(async (tx) => {
      await tx.imports.clearErrors(imp.id);
      await tx.imports.addErrors(imp.id, 0, [error]);
      await tx.imports.transition(imp.tenantId, imp.id, 'validating', 'failed', {
        errorCount: 1,
        validRows: 0,
        completedAt: this.d.clock.now().toISOString(),
      });
    });
  }

  async execute(p: ImportJobPayload): Promise<void> {
    const imp = await this.d.repos.imports.findById(p.tenantId, p.importId);
    if (imp?.status !== 'validating') return;
    const now = this.d.clock.now();
    const actor = importActor(imp, imp.createdBy);
    const kind = this.d.kinds.make(imp.type);
    await this.d.repos.imports.clearErrors(imp.id);
    await this.d.maintenance?.refreshStatistics(this.d.kinds.tables);
    let errorCount = 0;
    let valid = 0;
    let rowsWithErrors = 0;
    let pending: WalkedRow[] = [];
    let errors: RowError[] = [];
    const tally = new MessageTally(this.d, { tenantId: imp.tenantId, notify: imp.notify });
    const history = historyBefore(now);
    const flush = async (rows: WalkedRow[], found: RowError[], processed: number) => {
      const answers = await resolveRows(kind, this.d.repos, actor, rows, now);
      if (kind.messagesDue && imp.notify !== 'none') {
        const due: MessageDue[] = [];
        for (const c of answers)
          if ('ok' in c) due.push(...(await kind.messagesDue(this.d.repos, imp.tenantId, c.ok, history)));
        await tally.add(due);
      }
      answers.forEach((c, i) => {
        if ('ok' in c) valid++;
        else {
          rowsWithErrors++;
          found.push(...rowErrors(rows[i]!.row, rows[i]!.cells, c.errors));
        }
      });
      found.sort((a, b) => a.row - b.row);
      await this.d.repos.imports.addErrors(imp.id, errorCount, found);
      errorCount += found.length;
      await this.d.repos.imports.recordProgress(imp.tenantId, imp.id, 'validating', {
        processed,
        errorCount,
        rowsWithErrors,
      });
    };
    // The rows being checked against the tenant's data while the walk reads the next ones (docs/performance.md,
    // "Imports on Postgres"): the checks still run one after the other, in file order.
    const checking = new InOrder();
    const handOver = (processed: number) => {
      const rows = pending;
      const found = errors;
      pending = [];
      errors = [];
      return checking.queue(() => flush(rows, found, processed));
    };
    let end: Awaited<ReturnType<typeof walkFile>>;
    try {
      end = await walkFile(
        this.d.csv,
        await this.d.files.open(imp.fileKey),
        kind,
        now,
        (r) => {
          pending.push(r);
          return pending.length >= CHECK_ROWS ? handOver(r.n) : undefined;
        },
        async (header) => void (errors = header),
        imp.columnMap,
        imp.sheet,
      );
    } catch (e) {
      await checking.settled().catch(() => {});
      throw e;
    }
    errors.push(...end.fileErrors);
    await handOver(end.dataRows);
    await checking.settled();
    const counts = {
      totalRows: end.dataRows,
      validRows: end.fatal ? 0 : valid,
      rowsWithErrors: end.fatal ? end.dataRows : rowsWithErrors,
      errorCount,
      processed: end.dataRows,
      // A workbook's format was found as it was staged (its staged rows read as CSV say nothing of it).
      ...(end.format && imp.format?.file !== 'xlsx' ? { format: end.format } : {}),
      ...(end.fatal ? {} : { messages: tally.result() }),
    };
    const at = this.d.clock.now();
    await this.d.uow.run(async (tx) => {
      if (end.fatal) {
        await tx.imports.transition(imp.tenantId, imp.id, 'validating', 'failed', {
          ...counts,
          completedAt: at.toISOString(),
        });
        return;
      }
      if (!(await tx.imports.transition(imp.tenantId, imp.id, 'validating', 'validated', counts))) return;
      // Without a valid row there is nothing to confirm: the import stays validated with its report.
      if (!imp.autoConfirm || counts.validRows === 0) return;
      await tx.imports.transition(imp.tenantId, imp.id, 'validated', 'importing', {
        confirmedBy: imp.createdBy,
        processed: 0,
      });
      await enqueueJob(tx.jobs, CONFIRM_IMPORT, { tenantId: imp.tenantId, importId: imp.id }, { now: at });
    });
  }
}
