import {
  AWAITING_UPLOAD,
  DomainError,
  foldFilename,
  type EvidenceFileKey,
  type EvidenceFilter,
  type EvidenceRepos,
  type EvidenceRepository,
  type EvidenceSnapshot,
  type EvidenceVersionSnapshot,
  type Page,
  type PageRequest,
  type PurgeCandidate,
} from '@fundi/domain';
import { evidenceMemory } from '@fundi/memory/evidence';
import type { Knex } from 'knex';
import type { SqlDb } from '../db/sql-db.js';
import { evidenceMigration } from './migrations/202611230816-evidence.js';
import { storageUsageDaily } from './migrations/202611241853-storage-usage-daily.js';
import { evidenceAwaitingUpload } from './migrations/202611242234-awaiting-upload.js';
import { evidenceUploadTimeIndex } from './migrations/202611271605-upload-time-index.js';
import { mapUnique } from '../repos/conflicts.js';
import { pageQuery } from '../repos/paging.js';
import type { CapabilityStorage } from '../storage/capability-storage.js';
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
import {
  SqlEvidenceBundleRepository,
  SqlEvidenceSettingsRepository,
  SqlStorageHistoryRepository,
} from './sql-evidence-settings.js';
import { SqlUploadTicketRepository } from './sql-upload-tickets.js';

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

  async findByFileNames(tenantId: string, keys: readonly EvidenceFileKey[]): Promise<EvidenceSnapshot[]> {
    const wanted = new Set(keys.map((k) => `${k.learnerId}\u0000${k.moduleId}\u0000${foldFilename(k.filename)}`));
    const pairs = [...new Map(keys.map((k) => [`${k.learnerId}\u0000${k.moduleId}`, k])).values()];
    const out: EvidenceSnapshot[] = [];
    // The database narrows to the keys' learners and modules (the learner index); the file names are compared
    // here, folded alike on both engines. Chunks keep the statement under every engine's parameter limit.
    for (let i = 0; i < pairs.length; i += 200) {
      const chunk = pairs.slice(i, i + 200);
      const learners = [...new Set(chunk.map((k) => k.learnerId))];
      const modules = [...new Set(chunk.map((k) => k.moduleId))];
      const rows = await this.db.all<Row>(
        `${SELECT} WHERE e.tenant_id = ? AND e.deleted_at IS NULL AND e.learner_id IN (${learners.map(() => '?').join(', ')})
         AND e.module_id IN (${modules.map(() => '?').join(', ')})`,
        [tenantId, ...learners, ...modules],
      );
      for (const r of rows) {
        const e = rowToEvidence(r);
        if (wanted.has(`${e.learnerId}\u0000${e.moduleId}\u0000${foldFilename(e.current.filename)}`)) out.push(e);
      }
    }
    return [...new Map(out.map((e) => [e.id, e])).values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  async lockImportNames(tenantId: string): Promise<void> {
    const lock = this.db.dialect.transactionLock;
    if (lock) await this.db.all(lock, [`evidence-import-names:${tenantId}`]);
  }

  list(tenantId: string, f: EvidenceFilter, page: PageRequest): Promise<Page<EvidenceSnapshot>> {
    // Records awaiting their file have no version row: the inner join leaves them out unless they are asked for.
    const awaiting = f.status === AWAITING_UPLOAD;
    const q = this.qb({ e: 'evidence' })
      [awaiting ? 'leftJoin' : 'join']({ v: 'evidence_versions' }, (j) =>
        j.on('v.evidence_id', 'e.id').andOn('v.version', 'e.version'),
      )
      .select(
        'e.id',
        'e.tenant_id',
        'e.learner_id',
        'e.enrolment_id',
        'e.module_id',
        'e.evidence_type',
        'e.created_at',
        'e.updated_at',
        'e.deleted_at',
        'e.description',
        'e.awaiting_filename',
        { e_created_by: 'e.created_by' },
        'v.version',
        'v.filename',
        'v.content_type',
        'v.size',
        'v.sha256',
        'v.storage_key',
        'v.uploaded_by',
        { v_created_at: 'v.created_at' },
        'v.status',
        'v.reviewed_at',
        'v.reviewed_by',
        'v.feedback',
      )
      .where('e.tenant_id', tenantId)
      .whereNull('e.deleted_at');
    if (f.learnerId) q.where('e.learner_id', f.learnerId);
    if (f.moduleId) q.where('e.module_id', f.moduleId);
    if (f.enrolmentId) q.where('e.enrolment_id', f.enrolmentId);
    if (f.evidenceType) q.where('e.evidence_type', f.evidenceType);
    if (awaiting) q.where('e.version', 0);
    else if (f.status) q.where('v.status', f.status);
    if (f.from) q.where('e.created_at', '>=', f.from);
    if (f.to) q.where('e.created_at', '<=', f.to);
    return pageQuery(this.db, q, page, rowToEvidence, 'e.id');
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

  private async candidates(rows: Row[]): Promise<PurgeCandidate[]> {
    const out: PurgeCandidate[] = [];
    for (const r of rows) {
      const keys = await this.db.all<{ storage_key: string }>(
        'SELECT storage_key FROM evidence_versions WHERE evidence_id = ? ORDER BY version',
        [r.id as string],
      );
      out.push({
        tenantId: r.tenant_id as string,
        id: r.id as string,
        learnerId: r.learner_id as string,
        storageKeys: keys.map((k) => k.storage_key),
      });
    }
    return out;
  }

  async deletedBefore(before: string, limit: number): Promise<PurgeCandidate[]> {
    const rows = await this.db.all<Row>(
      'SELECT id, tenant_id, learner_id FROM evidence WHERE deleted_at IS NOT NULL AND deleted_at <= ? ORDER BY deleted_at, id LIMIT ?',
      [before, limit],
    );
    return this.candidates(rows);
  }

  async storageKeys(after: string | null, limit: number): Promise<string[]> {
    const rows = await this.db.all<{ storage_key: string }>(
      after === null
        ? 'SELECT storage_key FROM evidence_versions ORDER BY storage_key LIMIT ?'
        : 'SELECT storage_key FROM evidence_versions WHERE storage_key > ? ORDER BY storage_key LIMIT ?',
      after === null ? [limit] : [after, limit],
    );
    return rows.map((r) => r.storage_key);
  }

  async ofLearner(tenantId: string, learnerId: string): Promise<PurgeCandidate[]> {
    return this.candidates(
      await this.db.all<Row>(
        'SELECT id, tenant_id, learner_id FROM evidence WHERE tenant_id = ? AND learner_id = ? ORDER BY id',
        [tenantId, learnerId],
      ),
    );
  }

  async pastRetention(tenantId: string, completedOnOrBefore: string, limit: number): Promise<PurgeCandidate[]> {
    return this.candidates(
      await this.db.all<Row>(
        `SELECT e.id, e.tenant_id, e.learner_id FROM evidence e JOIN enrolments n ON n.id = e.enrolment_id AND n.tenant_id = e.tenant_id
       WHERE e.tenant_id = ? AND n.status = 'completed' AND n.achievement_date <= ? ORDER BY e.id LIMIT ?`,
        [tenantId, completedOnOrBefore, limit],
      ),
    );
  }

  async remove(tenantId: string, id: string): Promise<void> {
    await this.db.run('DELETE FROM evidence_versions WHERE tenant_id = ? AND evidence_id = ?', [tenantId, id]);
    await this.db.run('DELETE FROM evidence WHERE tenant_id = ? AND id = ?', [tenantId, id]);
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

export const evidenceStorage: CapabilityStorage<EvidenceRepos> = {
  migrations: [evidenceMigration, storageUsageDaily, evidenceAwaitingUpload, evidenceUploadTimeIndex],
  sql: (db, qb) => ({
    evidence: new SqlEvidenceRepository(db, qb),
    storageHistory: new SqlStorageHistoryRepository(db),
    uploadTickets: new SqlUploadTicketRepository(db),
    evidenceSettings: new SqlEvidenceSettingsRepository(db),
    evidenceBundles: new SqlEvidenceBundleRepository(db),
  }),
  memory: evidenceMemory,
  // An erased learner's evidence records, versions (file names) and upload tickets are deleted.
  erasureTables: ['evidence', 'evidence_versions', 'evidence_upload_tickets'],
};
