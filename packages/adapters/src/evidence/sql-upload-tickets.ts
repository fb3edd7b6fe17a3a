import type { UploadTicketRepository, UploadTicketSnapshot } from '@fundi/domain/evidence';
import type { SqlDb } from '../db/sql-db.js';
import { type Row, s } from './evidence-rows.js';

const TICKET_COLUMNS = [
  'id',
  'tenant_id',
  'evidence_id',
  'version',
  'learner_id',
  'enrolment_id',
  'module_id',
  'evidence_type',
  'filename',
  'size',
  'created_by',
  'created_at',
  'expires_at',
  'used_at',
];

export class SqlUploadTicketRepository implements UploadTicketRepository {
  constructor(private readonly db: SqlDb) {}

  async insert(t: UploadTicketSnapshot): Promise<void> {
    await this.db.run(
      `INSERT INTO evidence_upload_tickets (${TICKET_COLUMNS.join(', ')}) VALUES (${TICKET_COLUMNS.map(() => '?').join(', ')})`,
      [
        t.id,
        t.tenantId,
        t.evidenceId,
        t.version,
        t.learnerId,
        t.enrolmentId,
        t.moduleId,
        t.evidenceType,
        t.filename,
        t.size,
        t.createdBy,
        t.createdAt,
        t.expiresAt,
        t.usedAt,
      ],
    );
  }

  async findById(tenantId: string, id: string): Promise<UploadTicketSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM evidence_upload_tickets WHERE tenant_id = ? AND id = ?', [
      tenantId,
      id,
    ]);
    if (!r) return null;
    return {
      id: r.id as string,
      tenantId: r.tenant_id as string,
      evidenceId: r.evidence_id as string,
      version: Number(r.version),
      learnerId: r.learner_id as string,
      enrolmentId: r.enrolment_id as string,
      moduleId: r.module_id as string,
      evidenceType: r.evidence_type as UploadTicketSnapshot['evidenceType'],
      filename: r.filename as string,
      size: Number(r.size),
      createdBy: r.created_by as string,
      createdAt: r.created_at as string,
      expiresAt: r.expires_at as string,
      usedAt: s(r.used_at),
    };
  }

  async consume(tenantId: string, id: string, at: string): Promise<boolean> {
    return (
      (
        await this.db.run(
          'UPDATE evidence_upload_tickets SET used_at = ? WHERE tenant_id = ? AND id = ? AND used_at IS NULL',
          [at, tenantId, id],
        )
      ).changes > 0
    );
  }

  async removeOfLearner(tenantId: string, learnerId: string): Promise<number> {
    const { changes } = await this.db.run(
      'DELETE FROM evidence_upload_tickets WHERE tenant_id = ? AND learner_id = ?',
      [tenantId, learnerId],
    );
    return changes;
  }
}
