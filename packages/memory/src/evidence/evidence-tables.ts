import type {
  EvidenceBundleSnapshot,
  EvidenceSnapshot,
  EvidenceVersionSnapshot,
  StorageDay,
  UploadKeySnapshot,
  UploadTicketSnapshot,
} from '@fundi/domain/evidence';

/** `awaiting`: the file name and creator of a record awaiting its file (version 0, no stored version). */
export type EvidenceRow = Omit<EvidenceSnapshot, 'current'> & {
  version: number;
  awaiting: { filename: string; createdBy: string } | null;
};

/** The evidence capability's tables in memory. */
export interface EvidenceTables {
  evidence: Map<string, EvidenceRow>;
  /** Key: `${evidenceId}:${version}`. */
  evidenceVersions: Map<string, EvidenceVersionSnapshot>;
  uploadTickets: Map<string, UploadTicketSnapshot>;
  evidenceBundles: Map<string, EvidenceBundleSnapshot>;
  evidenceSettings: Map<string, number>;
  storageHistory: Map<string, StorageDay & { tenantId: string }>;
  /** Key: `${tenantId}|${key}`. */
  uploadKeys: Map<string, UploadKeySnapshot>;
}
