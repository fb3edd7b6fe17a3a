import type { Page, PageRequest } from '../common/paging.js';
import type { EvidenceType } from './evidence-fields.js';
import type { EvidenceFilter, EvidenceSnapshot, EvidenceVersionSnapshot } from './evidence-snapshot.js';
import type { UploadKeyRepository } from './evidence-upload-keys.js';

/**
 * A signed, single-use permission to PUT one file (the Form A upload): what the upload declared, checked again
 * against the bytes when they arrive. `version` 1 makes a new piece of evidence; a higher one adds a version.
 */
export interface UploadTicketSnapshot {
  id: string;
  tenantId: string;
  evidenceId: string;
  version: number;
  learnerId: string;
  enrolmentId: string;
  moduleId: string;
  evidenceType: EvidenceType;
  filename: string;
  /** The declared size: the upload must be exactly this long. */
  size: number;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

/** What an evidence purge removes: the record and every stored version's bytes. */
export interface PurgeCandidate {
  tenantId: string;
  id: string;
  learnerId: string;
  storageKeys: string[];
}

/** What a piece of evidence is known by in an `evidence` import: its learner, its module and its file name. */
export interface EvidenceFileKey {
  learnerId: string;
  moduleId: string;
  /** As the API cleans it (`parseFilename`). */
  filename: string;
}

/** Port: evidence records and their versions. Every read is scoped by tenant. */
export interface EvidenceRepository {
  /**
   * A new piece of evidence with its first version; or, when `e.current` is `awaiting_upload` (version 0), the
   * record alone with its file name, description and creator: no version, nothing counted in `usage`.
   */
  insert(e: EvidenceSnapshot): Promise<void>;
  /**
   * Adds `e.current` as a new version and makes it current (version 1 gives a record awaiting its file its file).
   * Throws conflict when that version number exists (a second upload for the same awaiting record).
   */
  addVersion(e: EvidenceSnapshot): Promise<void>;
  /** Writes the review of the current version; false when it was reviewed meanwhile (still `submitted` before). */
  saveReview(e: EvidenceSnapshot): Promise<boolean>;
  /** Null when absent, another tenant's, or deleted (unless `withDeleted`). */
  findById(tenantId: string, id: string, o?: { withDeleted?: boolean }): Promise<EvidenceSnapshot | null>;
  findByIds(tenantId: string, ids: readonly string[]): Promise<EvidenceSnapshot[]>;
  /**
   * Live evidence (not deleted; any status, records awaiting their file too) whose learner and module are a key's
   * and whose current file name is that key's after `foldFilename` (folded in code, not by the database, so that
   * every store compares alike), in id order.
   */
  findByFileNames(tenantId: string, keys: readonly EvidenceFileKey[]): Promise<EvidenceSnapshot[]>;
  /**
   * Inside a transaction: waits for, then holds until the transaction ends, the tenant's lock of file names. A writer
   * that checks names are free (`findByFileNames`) and then writes them takes it first, so two writers never both
   * find a name free. A store whose transactions run one at a time has nothing to do.
   */
  lockFileNames(tenantId: string): Promise<void>;
  /** Live evidence, in id order; records awaiting their file only when `filter.status` is `awaiting_upload`. */
  list(tenantId: string, filter: EvidenceFilter, page: PageRequest): Promise<Page<EvidenceSnapshot>>;
  /** Every version, oldest first. */
  versions(tenantId: string, id: string): Promise<EvidenceVersionSnapshot[]>;
  /** Marks deleted; false when absent or already deleted. */
  markDeleted(tenantId: string, id: string, at: string): Promise<boolean>;
  /** Clears the deletion mark; false when not deleted. */
  restore(tenantId: string, id: string, at: string): Promise<boolean>;
  /** Evidence deleted at or before `deletedBefore`, any tenant, oldest first. */
  deletedBefore(deletedBefore: string, limit: number): Promise<PurgeCandidate[]>;
  /** Every piece of a learner's evidence (deleted too), for erasure. */
  ofLearner(tenantId: string, learnerId: string): Promise<PurgeCandidate[]>;
  /** Removes the record and its versions (after their bytes are gone). */
  remove(tenantId: string, id: string): Promise<void>;
  /**
   * Live or deleted evidence of the tenant whose enrolment was completed on or before `completedOnOrBefore`
   * (YYYY-MM-DD): past its retention. Oldest id first.
   */
  pastRetention(tenantId: string, completedOnOrBefore: string, limit: number): Promise<PurgeCandidate[]>;
  /** Storage keys of every stored version of every tenant, in key order, after `after` (master-key rotation). */
  storageKeys(after: string | null, limit: number): Promise<string[]>;
  /**
   * Bytes and files stored for the tenant (every version, deleted evidence included until purged; records
   * awaiting their file have none).
   */
  usage(tenantId: string): Promise<{ bytes: number; files: number }>;
  /** The enrolments (each once, any order) of live evidence with a version uploaded at or after `since` (ISO 8601). */
  enrolmentsWithUploadsSince(tenantId: string, since: string): Promise<string[]>;
}

/** Port: Form A upload tickets. */
export interface UploadTicketRepository {
  insert(t: UploadTicketSnapshot): Promise<void>;
  findById(tenantId: string, id: string): Promise<UploadTicketSnapshot | null>;
  /** Marks the ticket used; false when it was used already (a second PUT with the same URL). */
  consume(tenantId: string, id: string, at: string): Promise<boolean>;
  /** Deletes every ticket for the learner's evidence (an erasure: a ticket keeps the file name); how many. */
  removeOfLearner(tenantId: string, learnerId: string): Promise<number>;
}

/** A set of evidence to download as one ZIP through a signed URL (too many ids to carry in the URL itself). */
export interface EvidenceBundleSnapshot {
  id: string;
  tenantId: string;
  evidenceIds: string[];
  createdBy: string;
  createdAt: string;
  expiresAt: string;
}

/** Port: bulk-download bundles. */
export interface EvidenceBundleRepository {
  insert(b: EvidenceBundleSnapshot): Promise<void>;
  findById(tenantId: string, id: string): Promise<EvidenceBundleSnapshot | null>;
}

/** Port: per-tenant evidence settings (retention in years after the enrolment's completion; default 7). */
export interface EvidenceSettingsRepository {
  retentionYears(tenantId: string): Promise<number | null>;
  setRetentionYears(tenantId: string, years: number): Promise<void>;
}

/** One day's storage use of a tenant, as last recorded that day. */
export interface StorageDay {
  /** YYYY-MM-DD (UTC). */
  day: string;
  bytes: number;
  files: number;
}

/** Port: storage use over time (a snapshot per tenant and day; a later snapshot the same day replaces it). */
export interface StorageHistoryRepository {
  record(tenantId: string, s: StorageDay): Promise<void>;
  /** Days on or after `fromDay`, oldest first. */
  list(tenantId: string, fromDay: string): Promise<StorageDay[]>;
}

export interface EvidenceRepos {
  evidence: EvidenceRepository;
  storageHistory: StorageHistoryRepository;
  evidenceSettings: EvidenceSettingsRepository;
  uploadTickets: UploadTicketRepository;
  evidenceBundles: EvidenceBundleRepository;
  uploadKeys: UploadKeyRepository;
}
