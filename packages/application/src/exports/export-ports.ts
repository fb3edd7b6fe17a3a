import type { Readable } from 'node:stream';
import type { PlatformRepos, TenantRepos } from '@fundi/domain';
import type { AuditRepos } from '@fundi/domain/audit';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { LogbookRepos } from '@fundi/domain/logbooks';
import type { StaffRepos } from '@fundi/domain/staff';
import type { TrainingRepos } from '@fundi/domain/training';
import type { EvidenceRepos } from '@fundi/domain/evidence';
import type { ExportRepos } from '@fundi/domain/exports';
import type { UrlSigner } from '../evidence/evidence-ports.js';
import type { FileVault } from '../files/file-vault.js';
import type { CoreDeps } from '../common/ports.js';

/** Port: writes a ZIP of the entries while it is read, opening each entry only when its turn comes. */
export type ZipWriter = (entries: { name: string; open(): Readable }[]) => Readable;

export interface ExportSettings {
  /** Public base of the service, so signed URLs are absolute; '' = relative. */
  publicUrl: string;
  /** Days a finished export's file is kept (default 7). */
  retentionDays: number;
}

export type ExportPorts = CoreDeps<
  ExportRepos &
    LearnerRepos &
    TrainingRepos &
    Pick<EvidenceRepos, 'evidence'> &
    Pick<LogbookRepos, 'logbookEntries'> &
    TenantRepos &
    PlatformRepos &
    AuditRepos &
    Pick<StaffRepos, 'staffCredentials'>
> & {
  files: FileVault;
  signer: UrlSigner;
  zip: ZipWriter;
  settings: ExportSettings;
};
