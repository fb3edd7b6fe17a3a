import { isStorageUnavailable } from '@fundi/domain';
import type { JobDefinition } from '../jobs/job-definition.js';
import {
  CONFIRM_IMPORT,
  parseImportJob,
  VALIDATE_IMPORT,
  type ImportDeps,
  type ImportJobPayload,
} from './import-ports.js';
import { ConfirmImport } from './confirm-import.js';
import { GetImport } from './get-import.js';
import { ImportErrorsCsv } from './import-errors-csv.js';
import { ImportTemplate } from './import-template.js';
import { ImportTemplateXlsx } from './import-template-xlsx.js';
import { ListImports } from './list-imports.js';
import { StartImport } from './start-import.js';
import { RemapImport } from './remap-import.js';
import { ValidateImport } from './validate-import.js';
import { WriteImport } from './write-import.js';
import { RemoveImportFilesOfErasedLearner } from './erased-learner-imports.js';

/** The imports capability's use cases. */
export function importUseCases(d: ImportDeps) {
  const startImport = new StartImport(d);
  return {
    startImport,
    remapImport: new RemapImport(d, startImport),
    getImport: new GetImport(d),
    listImports: new ListImports(d),
    importErrorsCsv: new ImportErrorsCsv(d),
    importTemplate: new ImportTemplate(d),
    importTemplateXlsx: new ImportTemplateXlsx(d),
    confirmImport: new ConfirmImport(d),
    validateImport: new ValidateImport(d),
    writeImport: new WriteImport(d),
    removeErasedLearnerFiles: new RemoveImportFilesOfErasedLearner(d),
    /** The offered import kinds (their types and columns, for the routes and pages). */
    kinds: d.kinds,
  };
}

export type ImportUseCases = ReturnType<typeof importUseCases>;

/** The two background steps of an import. */
export function importJobs(u: ImportUseCases): JobDefinition<ImportJobPayload>[] {
  return [
    {
      ...VALIDATE_IMPORT,
      parse: parseImportJob,
      run: async (p, ctx) => {
        try {
          await u.validateImport.execute(p);
        } catch (e) {
          // An unreachable database is not a failure of the import: the job goes back to the queue.
          if (ctx.attempt < (VALIDATE_IMPORT.maxAttempts ?? 10) || isStorageUnavailable(e)) throw e;
          await u.validateImport.giveUp(p, e instanceof Error ? e.message : String(e));
        }
      },
    },
    {
      ...CONFIRM_IMPORT,
      parse: parseImportJob,
      run: async (p, ctx) => {
        try {
          await u.writeImport.execute(p, ctx);
        } catch (e) {
          // A stop, a lost lease or an unreachable database is not a failure of the import: the next runner resumes it.
          if (ctx.signal.aborted || ctx.attempt < (CONFIRM_IMPORT.maxAttempts ?? 10) || isStorageUnavailable(e))
            throw e;
          await u.writeImport.giveUp(p, e instanceof Error ? e.message : String(e));
        }
      },
    },
  ];
}
