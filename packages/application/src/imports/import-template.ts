import type { ImportDeps } from './import-ports.js';
import { line } from './import-queries.js';

/** The header row and one example row of a type. */
export class ImportTemplate {
  constructor(private readonly d: Pick<ImportDeps, 'kinds'>) {}

  execute(type: string): string {
    const cols = this.d.kinds.make(type).columns;
    return line(cols.map((c) => c.name)) + line(cols.map((c) => c.example));
  }
}
