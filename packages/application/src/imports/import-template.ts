import type { ImportType } from '@fundi/domain/imports';
import { IMPORT_KINDS } from './import-walk.js';
import { line } from './import-queries.js';

/** The header row and one example row of a type. */
export class ImportTemplate {
  execute(type: ImportType): string {
    const cols = IMPORT_KINDS[type]().columns;
    return line(cols.map((c) => c.name)) + line(cols.map((c) => c.example));
  }
}
