import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import {
  AWAITING_UPLOAD,
  type EvidenceFileKey,
  type EvidenceFilter,
  type EvidenceRepository,
  type EvidenceSnapshot,
  type EvidenceVersionSnapshot,
  type PurgeCandidate,
} from '@fundi/domain/evidence';
import type { Knex } from 'knex';
import type { SqlDb } from '../db/sql-db.js';
import { mapUnique } from '../db/conflicts.js';
import { findByFileNames } from './evidence-file-names.js';
import { listEvidence } from './evidence-listing.js';
import { deletedBefore, ofLearner, pastRetention, removeEvidence, storageKeysAfter } from './evidence-purge-queries.js';
import {
  DUPLICATE_VERSION,
  INSERT_EVIDENCE,
  INSERT_VERSION,
  type Row,
  SELECT,
  rowToEvidence,
  rowToVersion,
  versionValues,
} from './evidence-rows.js';

export class SqlEvidenceRepository implements EvidenceRepository {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  async insert(e: EvidenceSnapshot): Promise<void> {
    const awaiting = e.current.status === AWAITING_UPLOAD;
    await this.db.run(INSERT_EVIDENCE, [
      e.id,
      e.tenantId,
      e.learnerId,
      e.enrolmentId,
      e.moduleId,
      e.evidenceType,
      e.current.version,
      e.createdAt,
      e.updatedAt,
      e.deletedAt,
      e.description,
      awaiting ? e.current.filename : null,
      awaiting ? e.current.uploadedBy : null,
    ]);
    if (!awaiting) await this.db.run(INSERT_VERSION, versionValues(e.current));
  }

  async addVersion(e: EvidenceSnapshot): Promise<void> {
    await mapUnique(this.db.dialect, DUPLICATE_VERSION, () => this.db.run(INSERT_VERSION, versionValues(e.current)));
    const { changes } = await this.db.run(
      'UPDATE evidence SET version = ?, updated_at = ? WHERE tenant_id = ? AND id = ?',
      [e.current.version, e.updatedAt, e.tenantId, e.id],
    );
    if (changes === 0) throw DomainError.notFound('evidence', e.id);
  }

  async saveReview(e: EvidenceSnapshot): Promise<boolean> {
    const v = e.current;
    const { changes } = await this.db.run(
      `UPDATE evidence_versions SET status = ?, reviewed_at = ?, reviewed_by = ?, feedback = ?
       WHERE tenant_id = ? AND evidence_id = ? AND version = ? AND status = 'submitted'`,
      [v.status, v.reviewedAt, v.reviewedBy, v.feedback, e.tenantId, e.id, v.version],
    );
    if (changes === 0) return false;
    await this.db.run('UPDATE evidence SET updated_at = ? WHERE tenant_id = ? AND id = ?', [
      e.updatedAt,
      e.tenantId,
      e.id,
    ]);
    return true;
  }

  async findById(tenantId: string, id: string, o: { withDeleted?: boolean } = {}): Promise<EvidenceSnapshot | null> {
    const r = await this.db.first<Row>(
      `${SELECT} WHERE e.tenant_id = ? AND e.id = ?${o.withDeleted ? '' : ' AND e.deleted_at IS NULL'}`,
      [tenantId, id],
    );
    return r ? rowToEvidence(r) : null;
  }

  async findByIds(tenantId: string, ids: readonly string[]): Promise<EvidenceSnapshot[]> {
    if (ids.length === 0) return [];
    const out: EvidenceSnapshot[] = [];
    // Chunks keep the statement under every engine's parameter limit.
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 200) {
      const chunk = unique.slice(i, i + 200);
      const rows = await this.db.all<Row>(
        `${SELECT} WHERE e.tenant_id = ? AND e.deleted_at IS NULL AND e.id IN (${chunk.map(() => '?').join(', ')}) ORDER BY e.id`,
        [tenantId, ...chunk],
      );
      out.push(...rows.map(rowToEvidence));
    }
    return out.sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  findByFileNames(tenantId: string, keys: readonly EvidenceFileKey[]): Promise<EvidenceSnapshot[]> {
    return findByFileNames(this.db, tenantId, keys);
  }

  async lockFileNames(tenantId: string): Promise<void> {
    const lock = this.db.dialect.transactionLock;
    // The key's text is the one earlier releases take, so processes of both exclude each other in a rolling deploy.
    if (lock) await this.db.all(lock, [`evidence-import-names:${tenantId}`]);
  }

  list(tenantId: string, f: EvidenceFilter, page: PageRequest): Promise<Page<EvidenceSnapshot>> {
    return listEvidence(this.db, this.qb, tenantId, f, page);
  }

  async versions(tenantId: string, id: string): Promise<EvidenceVersionSnapshot[]> {
    const rows = await this.db.all<Row>(
      'SELECT * FROM evidence_versions WHERE tenant_id = ? AND evidence_id = ? ORDER BY version',
      [tenantId, id],
    );
    return rows.map((r) => rowToVersion(r, r.created_at as string));
  }

  async markDeleted(tenantId: string, id: string, at: string): Promise<boolean> {
    return (
      (
        await this.db.run(
          'UPDATE evidence SET deleted_at = ?, updated_at = ? WHERE tenant_id = ? AND id = ? AND deleted_at IS NULL',
          [at, at, tenantId, id],
        )
      ).changes > 0
    );
  }

  async restore(tenantId: string, id: string, at: string): Promise<boolean> {
    return (
      (
        await this.db.run(
          'UPDATE evidence SET deleted_at = NULL, updated_at = ? WHERE tenant_id = ? AND id = ? AND deleted_at IS NOT NULL',
          [at, tenantId, id],
        )
      ).changes > 0
    );
  }

  deletedBefore(before: string, limit: number): Promise<PurgeCandidate[]> {
    return deletedBefore(this.db, before, limit);
  }

  storageKeys(after: string | null, limit: number): Promise<string[]> {
    return storageKeysAfter(this.db, after, limit);
  }

  ofLearner(tenantId: string, learnerId: string): Promise<PurgeCandidate[]> {
    return ofLearner(this.db, tenantId, learnerId);
  }

  pastRetention(tenantId: string, completedOnOrBefore: string, limit: number): Promise<PurgeCandidate[]> {
    return pastRetention(this.db, tenantId, completedOnOrBefore, limit);
  }

  remove(tenantId: string, id: string): Promise<void> {
    return removeEvidence(this.db, tenantId, id);
  }

  async usage(tenantId: string): Promise<{ bytes: number; files: number }> {
    const r = await this.db.first<{ bytes: unknown; files: unknown }>(
      'SELECT COALESCE(SUM(size), 0) AS bytes, COUNT(*) AS files FROM evidence_versions WHERE tenant_id = ?',
      [tenantId],
    );
    return { bytes: Number(r?.bytes ?? 0), files: Number(r?.files ?? 0) };
  }

  async enrolmentsWithUploadsSince(tenantId: string, since: string): Promise<string[]> {
    const rows = await this.db.all<{ enrolment_id: string }>(
      `SELECT DISTINCT e.enrolment_id FROM evidence_versions v JOIN evidence e ON e.id = v.evidence_id AND e.tenant_id = v.tenant_id
       WHERE v.tenant_id = ? AND v.created_at >= ? AND e.deleted_at IS NULL`,
      [tenantId, since],
    );
    return rows.map((r) => r.enrolment_id);
  }
}
