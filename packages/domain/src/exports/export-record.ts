import type { Page, PageRequest } from '../common/paging.js';
import type { ReadinessReport } from './readiness.js';
import type { RegulatorSettings } from './regulator-settings.js';

export type ExportFormat = 'csv' | 'zip' | 'txt';
export type ExportStatus = 'queued' | 'processing' | 'ready' | 'failed';
/**
 * Why an export's file was purged: `expired` (past its retention) or `learner_erased` (it was made before a
 * learner's erasure and may hold them; docs/api.md, "Erasure").
 */
export type ExportPurgeReason = 'expired' | 'learner_erased';

/** Which rows an export covers (docs/api.md, "Exports"). Dates are inclusive `YYYY-MM-DD`. */
export interface ExportFilters {
  programmeId?: string;
  status?: string;
  from?: string;
  to?: string;
  /** Only these learners (a learners export of a selection; at most 1,000). */
  learnerIds?: string[];
}

export interface ExportSnapshot {
  id: string;
  tenantId: string;
  /** One of the export types the capabilities offer (docs/architecture.md, "A capability's anatomy"). */
  type: string;
  format: ExportFormat;
  status: ExportStatus;
  filters: ExportFilters;
  /** The chosen CSV columns, in order; `null` = the type's default columns. */
  fields: string[] | null;
  /** Data rows written (CSV: without the header; ZIP: over its files; QCTO: records). */
  rowCount: number | null;
  /** Rows written so far while the worker writes the file (about every second); null before it starts. */
  processedRows: number | null;
  /** The rows the file will hold, counted when the worker starts; null where it is not known beforehand. */
  totalRows: number | null;
  fileName: string | null;
  /** Bytes of the file as downloaded (plaintext). */
  size: number | null;
  contentType: string | null;
  storageKey: string | null;
  /** Regulator files: who was left out and why. */
  readiness: ReadinessReport | null;
  error: string | null;
  createdBy: string;
  createdAt: string;
  completedAt: string | null;
  /** When the file is purged (ready exports only). */
  expiresAt: string | null;
  purgedAt: string | null;
  /** Set with `purgedAt`. */
  purgeReason: ExportPurgeReason | null;
}

/** Port: export records. Scoped by tenant; another tenant's export is "not found". */
export interface ExportRepository {
  insert(e: ExportSnapshot): Promise<void>;
  /** Replaces the stored record. Throws not_found when absent. */
  update(e: ExportSnapshot): Promise<void>;
  findById(tenantId: string, id: string): Promise<ExportSnapshot | null>;
  /** Newest last (ordered by id). */
  list(tenantId: string, page: PageRequest): Promise<Page<ExportSnapshot>>;
  /** Records how far a `processing` export has got (nothing else changes; any other status is left alone). */
  recordProgress(tenantId: string, id: string, processedRows: number, totalRows: number | null): Promise<void>;
  /** Ready exports of every tenant whose file expired at or before `at` and is not purged yet; oldest first. */
  expired(at: string, limit: number): Promise<ExportSnapshot[]>;
  /** The tenant's exports created at or before `at`, by id, the first `limit` after `afterId` (null: from the start). */
  madeBefore(tenantId: string, at: string, afterId: string | null, limit: number): Promise<ExportSnapshot[]>;
}

/** Port: each tenant's regulator settings. */
export interface RegulatorSettingsRepository {
  /** `null` when the tenant never saved any. */
  get(tenantId: string): Promise<RegulatorSettings | null>;
  /** Replaces the tenant's settings. */
  put(tenantId: string, settings: RegulatorSettings, at: string): Promise<void>;
}

/** The exports capability's repositories. */
export interface ExportRepos {
  exports: ExportRepository;
  regulatorSettings: RegulatorSettingsRepository;
}
