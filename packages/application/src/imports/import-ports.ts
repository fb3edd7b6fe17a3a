import type { Clock, UnitOfWork } from '@fundi/domain';
import type { ImportRepos } from '@fundi/domain/imports';
import type { OfferedHooks } from '../common/hooks.js';
import type { StorageMaintenance } from '../common/ports.js';
import type { UrlSigner } from '../common/url-signer.js';
import type { FileVault } from '../files/file-vault.js';
import { jobType } from '../jobs/job-definition.js';
import type { CsvReader } from './csv-reader.js';
import type { WorkbookWriter } from './template-workbook.js';
import type { ImportKindRepos } from './import-kind.js';
import type { ImportKinds } from './import-kinds.js';

export type ImportRepositories = ImportKindRepos & ImportRepos;

export interface ImportDeps {
  repos: ImportRepositories;
  uow: UnitOfWork<ImportRepositories>;
  clock: Clock;
  /** Where uploaded files are kept, encrypted (any process can read them back). */
  files: FileVault;
  csv: CsvReader;
  /** Writes the .xlsx templates. */
  workbooks: WorkbookWriter;
  /**
   * The offers of every capability: the dry run counts what a confirm would send by the offers of `importMessages`
   * (absent: it counts no message).
   */
  hooks?: OfferedHooks;
  /** Signs the cursors of an import's error pages (`?errorsCursor`), bound to the tenant and the import. */
  cursors: UrlSigner;
  /** Every offered import kind (each capability's `offers.importKinds`). */
  kinds: ImportKinds;
  /** Keeps the planner's statistics of the tables an import reads and grows current (absent: nothing to keep). */
  maintenance?: Pick<StorageMaintenance, 'refreshStatistics'>;
}

export interface ImportJobPayload {
  tenantId: string;
  importId: string;
}

/** Reads the file and checks every row; writes only the import's counters and errors. */
export const VALIDATE_IMPORT = jobType<ImportJobPayload>('imports.validate', 'long', {
  maxAttempts: 5,
  priority: 'interactive',
});
/** Writes the valid rows in batches; resumes after the last committed batch. */
export const CONFIRM_IMPORT = jobType<ImportJobPayload>('imports.confirm', 'long', {
  maxAttempts: 10,
  priority: 'interactive',
});

export function parseImportJob(v: unknown): ImportJobPayload {
  const p = (v ?? {}) as Record<string, unknown>;
  if (typeof p.tenantId !== 'string' || typeof p.importId !== 'string')
    throw new Error('expected {tenantId, importId}');
  return { tenantId: p.tenantId, importId: p.importId };
}

export const fileKeyOf = (tenantId: string, importId: string) => `t/${tenantId}/imports/${importId}/upload.csv`;
/** Where a workbook's staged rows are kept (docs/performance.md, "Excel workbooks"): the import's file once read. */
export const stagedKeyOf = (tenantId: string, importId: string) => `t/${tenantId}/imports/${importId}/sheet.csv`;
