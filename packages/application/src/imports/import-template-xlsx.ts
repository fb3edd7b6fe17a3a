import type { ImportDeps } from './import-ports.js';
import { templateSheets } from './template-workbook.js';

/** The .xlsx template of a type: the header and example row, columns as text (dates as dates), and its codes. */
export class ImportTemplateXlsx {
  constructor(private readonly d: Pick<ImportDeps, 'workbooks' | 'kinds'>) {}

  execute(type: string): Promise<Buffer> {
    return this.d.workbooks.write(templateSheets(this.d.kinds.make(type)));
  }
}
