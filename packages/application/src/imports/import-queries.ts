import { Readable } from 'node:stream';
import { DomainError, type ImportStatus, type ImportType, type Page, type PageRequest } from '@fundi/domain';
import { csvLine } from '../exports/csv.js';
import { enqueueJob } from '../jobs/job-definition.js';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { ImportRecord } from '@fundi/domain';
import { CONFIRM_IMPORT, type ImportDeps } from './import-ports.js';
import { importView, type ImportView, type ImportWithErrors } from './import-view.js';
import { templateSheets } from './template-workbook.js';
import { IMPORT_KINDS } from './import-walk.js';

/** The signing purpose of error-page cursors (a list cursor or a file URL never passes for one). */
const ERRORS_CURSOR = 'import-errors';

// One rule for every CSV the service writes (docs/api.md, "Exports"): formula-like text is defused.
const line = (cells: (string | number)[]) => csvLine(cells);

/** Reads of imports, the errors file, the templates, and confirm. */
export class ImportQueries {
  constructor(private readonly d: ImportDeps) {}

  private async find(actor: Actor, id: string) {
    const imp = await this.d.repos.imports.findById(actor.tenantId, id);
    if (!imp) throw DomainError.notFound('import', id);
    return imp;
  }

  /**
   * The import with one page of its errors (`limit` at most 1,000), from `offset` or from `cursor` (the signed
   * position a previous page gave, bound to the tenant and this import; anything else is invalid input).
   */
  async get(
    actor: Actor,
    id: string,
    page: { limit: number; offset?: number; cursor?: string },
  ): Promise<ImportWithErrors> {
    if (page.offset !== undefined && page.cursor !== undefined)
      throw DomainError.invalid('errorsCursor', 'give errorsCursor or errorsOffset, not both');
    const imp = await this.find(actor, id);
    const offset = page.cursor === undefined ? (page.offset ?? 0) : this.openCursor(actor, imp.id, page.cursor);
    const errors = await this.d.repos.imports.errors(imp.id, offset, page.limit);
    const hasMore = offset + errors.length < imp.errorCount;
    const next = `${actor.tenantId}|${imp.id}|${offset + errors.length}`;
    return {
      ...importView(imp),
      errors,
      errorsPage: {
        offset,
        limit: page.limit,
        total: imp.errorCount,
        hasMore,
        nextCursor: hasMore ? this.d.cursors.sign(next, ERRORS_CURSOR) : null,
      },
    };
  }

  private openCursor(actor: Actor, importId: string, cursor: string): number {
    const [tenantId, id, at, extra] = (this.d.cursors.verify(cursor, ERRORS_CURSOR) ?? '').split('|');
    if (tenantId !== actor.tenantId || id !== importId || extra !== undefined || !/^\d{1,9}$/.test(at ?? ''))
      throw DomainError.invalid('errorsCursor', "is not a cursor of this import's errors: start again without it");
    return Number(at);
  }

  list(
    actor: Actor,
    filter: { status?: ImportStatus; type?: ImportType },
    page: PageRequest,
  ): Promise<Page<ImportView>> {
    return this.d.repos.imports
      .list(actor.tenantId, filter, page)
      .then((p) => ({ ...p, items: p.items.map(importView) }));
  }

  /**
   * Every error as CSV (`row,field,error,value,learner,id_number`), read from storage page by page while it is sent.
   */
  async errorsCsv(actor: Actor, id: string): Promise<{ fileName: string; open(): Readable }> {
    const imp = await this.find(actor, id);
    const repo = this.d.repos.imports;
    async function* lines() {
      yield line(['row', 'field', 'error', 'value', 'learner', 'id_number']);
      for (let offset = 0; ; offset += 1000) {
        const page = await repo.errors(imp.id, offset, 1000);
        if (page.length)
          yield page
            .map((e) =>
              line([e.row, e.field, e.error, e.value ?? '', e.learner?.name ?? '', e.learner?.idNumber ?? '']),
            )
            .join('');
        if (page.length < 1000) return;
      }
    }
    return { fileName: `${imp.fileName.replace(/\.csv$/i, '')}-errors.csv`, open: () => Readable.from(lines()) };
  }

  /** The header row and one example row of a type. */
  template(type: ImportType): string {
    const cols = IMPORT_KINDS[type]().columns;
    return line(cols.map((c) => c.name)) + line(cols.map((c) => c.example));
  }

  /** The .xlsx template of a type: the header and example row, columns as text (dates as dates), and its codes. */
  templateXlsx(type: ImportType): Promise<Buffer> {
    return this.d.workbooks.write(templateSheets(type));
  }

  /** Only from `validated`, once: any other state is a conflict and nothing is written (docs/api.md, "Imports"). */
  async confirm(actor: Actor, id: string): Promise<ImportView> {
    const now = this.d.clock.now();
    return this.d.uow.run(async (tx) => {
      const imp = await tx.imports.findById(actor.tenantId, id);
      if (!imp) throw DomainError.notFound('import', id);
      ImportRecord.assertConfirmable(imp);
      const set = { confirmedBy: actor.id, processed: 0 };
      if (!(await tx.imports.transition(imp.tenantId, imp.id, 'validated', 'importing', set)))
        ImportRecord.assertConfirmable({ ...imp, status: 'importing' });
      await enqueueJob(tx.jobs, CONFIRM_IMPORT, { tenantId: imp.tenantId, importId: imp.id }, { now });
      await recordChange(tx, actor, now, { action: 'import.confirmed', resourceType: 'import', resourceId: imp.id });
      return importView({ ...imp, ...set, status: 'importing' });
    });
  }
}
