import { Readable } from 'node:stream';
import type { Actor } from '../common/actor.js';
import type { ImportDeps } from './import-ports.js';
import { line, findImport } from './import-queries.js';

/**
 * Every error as CSV (`row,field,error,value,learner,id_number`), read from storage page by page while it is sent.
 */
export class ImportErrorsCsv {
  constructor(private readonly d: ImportDeps) {}

  async execute(actor: Actor, id: string): Promise<{ fileName: string; open(): Readable }> {
    const imp = await findImport(this.d, actor, id);
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
}
