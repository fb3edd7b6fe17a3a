import type { EvidenceRepos } from '@fundi/domain/evidence';
import { evidenceMemory } from '@fundi/memory/evidence';
import type { CapabilityStorage } from '../storage/capability-storage.js';
import { evidenceMigration } from './migrations/202611230816-evidence.js';
import { storageUsageDaily } from './migrations/202611241853-storage-usage-daily.js';
import { evidenceAwaitingUpload } from './migrations/202611242234-awaiting-upload.js';
import { evidenceUploadTimeIndex } from './migrations/202611271605-upload-time-index.js';
import { evidenceUploadKeys } from './migrations/202611281050-upload-keys.js';
import {
  SqlEvidenceBundleRepository,
  SqlEvidenceSettingsRepository,
  SqlStorageHistoryRepository,
} from './sql-evidence-settings.js';
import { SqlEvidenceRepository } from './sql-evidence.js';
import { SqlUploadKeyRepository } from './sql-upload-keys.js';
import { SqlUploadTicketRepository } from './sql-upload-tickets.js';

export const evidenceStorage: CapabilityStorage<EvidenceRepos> = {
  migrations: [
    evidenceMigration,
    storageUsageDaily,
    evidenceAwaitingUpload,
    evidenceUploadTimeIndex,
    evidenceUploadKeys,
  ],
  sql: (db, qb) => ({
    evidence: new SqlEvidenceRepository(db, qb),
    storageHistory: new SqlStorageHistoryRepository(db),
    uploadTickets: new SqlUploadTicketRepository(db),
    evidenceSettings: new SqlEvidenceSettingsRepository(db),
    evidenceBundles: new SqlEvidenceBundleRepository(db),
    uploadKeys: new SqlUploadKeyRepository(db),
  }),
  memory: evidenceMemory,
  // An erased learner's evidence records, versions (file names) and upload tickets are deleted.
  erasureTables: ['evidence', 'evidence_versions', 'evidence_upload_tickets'],
};
