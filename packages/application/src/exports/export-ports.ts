import type { Readable } from 'node:stream';
import type { PlatformRepos, TenantRepos } from '@fundi/domain';
import type { AuditRepos } from '@fundi/domain/audit';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';
import type { ExportRepos } from '@fundi/domain/exports';
import type { FileVault } from '../files/file-vault.js';
import type { CoreDeps } from '../common/ports.js';
import type { UrlSigner } from '../common/url-signer.js';
import type { ExportTypeDef, SystemActors } from './export-type.js';

/** Port: writes a ZIP of the entries while it is read, opening each entry only when its turn comes. */
export type ZipWriter = (entries: { name: string; open(): Readable }[]) => Readable;

export interface ExportSettings {
  /** Public base of the service, so signed URLs are absolute; '' = relative. */
  publicUrl: string;
  /** Days a finished export's file is kept (default 7). */
  retentionDays: number;
}

/**
 * The exports' ports. The repositories are the service's (its unit of work hands out every capability's): the
 * exports read their own, the regulator files learners and their enrolments, and each offered type's reader what
 * its capability named.
 */
export type ExportPorts = CoreDeps<
  ExportRepos & LearnerRepos & TrainingRepos & TenantRepos & PlatformRepos & AuditRepos
> & {
  files: FileVault;
  signer: UrlSigner;
  zip: ZipWriter;
  settings: ExportSettings;
  /** Every export type, in the capability list's order (each capability's `offers.exportTypes`). */
  types: readonly ExportTypeDef[];
  /** The service's own actors, the kernel's and those capabilities declare (the audit trail's rows name them). */
  system: SystemActors;
};
