import type { EvidenceRepos } from '@fundi/domain/evidence';
import type { MemoryPart } from '../common/memory-store.js';
import { InMemoryEvidenceBundleRepository } from './in-memory-evidence-bundles.js';
import { InMemoryEvidenceSettingsRepository } from './in-memory-evidence-settings.js';
import { InMemoryEvidenceRepository } from './in-memory-evidence.js';
import { InMemoryStorageHistoryRepository } from './in-memory-storage-history.js';
import { InMemoryUploadKeyRepository } from './in-memory-upload-keys.js';
import { InMemoryUploadTicketRepository } from './in-memory-upload-tickets.js';
import type { EvidenceTables } from './evidence-tables.js';

export const evidenceMemory: MemoryPart<EvidenceRepos, EvidenceTables> = {
  tables: () => ({
    storageHistory: new Map(),
    evidence: new Map(),
    evidenceVersions: new Map(),
    uploadTickets: new Map(),
    evidenceBundles: new Map(),
    evidenceSettings: new Map(),
    uploadKeys: new Map(),
  }),
  repositories: (store) => ({
    evidence: new InMemoryEvidenceRepository(store),
    storageHistory: new InMemoryStorageHistoryRepository(store),
    uploadTickets: new InMemoryUploadTicketRepository(store),
    evidenceBundles: new InMemoryEvidenceBundleRepository(store),
    evidenceSettings: new InMemoryEvidenceSettingsRepository(store),
    uploadKeys: new InMemoryUploadKeyRepository(store),
  }),
};
