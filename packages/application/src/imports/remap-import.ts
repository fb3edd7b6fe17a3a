import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { ImportDeps } from './import-ports.js';
import type { ImportWithErrors } from './import-view.js';
import type { StartImport } from './start-import.js';

/**
 * The same uploaded file read again with header names mapped to columns (the dashboard's column-mapping form,
 * docs/dashboard.md): a new dry run of the stored file, with its type, `notify` and sheet, and `columns` as the API's
 * `options.columns` (checked and saved for the tenant's next files alike). Only a checked import (validated, not
 * confirmed, or failed) can be read again; the first one stays as it is.
 */
export class RemapImport {
  constructor(
    private readonly d: ImportDeps,
    private readonly start: StartImport,
  ) {}

  async execute(actor: Actor, id: string, columns: Record<string, string | null>): Promise<ImportWithErrors> {
    const imp = await this.d.repos.imports.findById(actor.tenantId, id);
    if (!imp) throw DomainError.notFound('import', id);
    if (imp.status !== 'validated' && imp.status !== 'failed')
      throw DomainError.conflict(
        'import_not_remappable',
        `The import is ${imp.status}; only a checked import that was not confirmed can be read again with a mapping`,
        [{ field: 'status', message: `is ${imp.status}` }],
        { currentStatus: imp.status },
      );
    const stream = await this.d.files.open(imp.fileKey);
    return this.start.execute(
      actor,
      {
        type: imp.type,
        options: { dryRun: true, notify: imp.notify, columns, ...(imp.sheet ? { sheet: imp.sheet } : {}) },
      },
      // A workbook's stored file is its staged rows, which are read again as they are.
      { stream, filename: imp.fileName, ...(imp.format?.file === 'xlsx' ? { staged: imp.format } : {}) },
    );
  }
}
