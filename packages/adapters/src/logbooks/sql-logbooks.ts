import type { Knex } from 'knex';
import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import type { LogbookEntryRepository, LogbookEntrySnapshot, LogbookFilter } from '@fundi/domain/logbooks';
import { erasedEntry } from '@fundi/memory/logbooks';
import type { SqlDb } from '../db/sql-db.js';
import { chunks, marks } from '../db/sql-helpers.js';
import { pageQuery } from '../db/paging.js';

type Row = Record<string, string | number | null>;

const COLUMNS = {
  id: (e: LogbookEntrySnapshot) => e.id,
  tenant_id: (e: LogbookEntrySnapshot) => e.tenantId,
  learner_id: (e: LogbookEntrySnapshot) => e.learnerId,
  enrolment_id: (e: LogbookEntrySnapshot) => e.enrolmentId,
  module_code: (e: LogbookEntrySnapshot) => e.moduleCode,
  date: (e: LogbookEntrySnapshot) => e.date,
  hours: (e: LogbookEntrySnapshot) => e.hours,
  activity: (e: LogbookEntrySnapshot) => e.activity,
  workplace: (e: LogbookEntrySnapshot) => e.workplace,
  supervisor: (e: LogbookEntrySnapshot) => JSON.stringify(e.supervisor),
  evidence_ids: (e: LogbookEntrySnapshot) => JSON.stringify(e.evidenceIds),
  status: (e: LogbookEntrySnapshot) => e.status,
  submitted_at: (e: LogbookEntrySnapshot) => e.submittedAt,
  submission_id: (e: LogbookEntrySnapshot) => e.submissionId,
  signed_at: (e: LogbookEntrySnapshot) => e.signedAt,
  sign_off: (e: LogbookEntrySnapshot) => (e.signOff ? JSON.stringify(e.signOff) : null),
  created_by: (e: LogbookEntrySnapshot) => e.createdBy,
  created_at: (e: LogbookEntrySnapshot) => e.createdAt,
  updated_at: (e: LogbookEntrySnapshot) => e.updatedAt,
} as const;
const NAMES = Object.keys(COLUMNS) as (keyof typeof COLUMNS)[];
const UPDATABLE = NAMES.filter((k) => !['id', 'tenant_id', 'learner_id', 'created_at', 'created_by'].includes(k));
const INSERT = `INSERT INTO logbook_entries (${NAMES.join(', ')}) VALUES (${marks(NAMES.length)})`;
const UPDATE = `UPDATE logbook_entries SET ${UPDATABLE.map((k) => `${k} = ?`).join(', ')} WHERE tenant_id = ? AND id = ?`;

const entryOf = (r: Row): LogbookEntrySnapshot => ({
  id: String(r.id),
  tenantId: String(r.tenant_id),
  learnerId: String(r.learner_id),
  enrolmentId: String(r.enrolment_id),
  moduleCode: String(r.module_code),
  date: String(r.date),
  hours: Number(r.hours),
  activity: String(r.activity),
  workplace: String(r.workplace),
  supervisor: JSON.parse(String(r.supervisor)),
  evidenceIds: JSON.parse(String(r.evidence_ids)),
  status: r.status as LogbookEntrySnapshot['status'],
  submittedAt: r.submitted_at === null ? null : String(r.submitted_at),
  submissionId: r.submission_id == null ? null : String(r.submission_id),
  signedAt: r.signed_at === null ? null : String(r.signed_at),
  signOff: r.sign_off === null ? null : JSON.parse(String(r.sign_off)),
  createdBy: String(r.created_by),
  createdAt: String(r.created_at),
  updatedAt: String(r.updated_at),
});

export class SqlLogbookEntryRepository implements LogbookEntryRepository {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  async insert(e: LogbookEntrySnapshot): Promise<void> {
    await this.db.run(
      INSERT,
      NAMES.map((k) => COLUMNS[k](e)),
    );
  }

  async update(e: LogbookEntrySnapshot): Promise<void> {
    const { changes } = await this.db.run(UPDATE, [...UPDATABLE.map((k) => COLUMNS[k](e)), e.tenantId, e.id]);
    if (changes === 0) throw DomainError.notFound('logbook entry', e.id);
  }

  async findById(tenantId: string, id: string): Promise<LogbookEntrySnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM logbook_entries WHERE tenant_id = ? AND id = ?', [tenantId, id]);
    return r ? entryOf(r) : null;
  }

  async findByIds(tenantId: string, ids: readonly string[]): Promise<LogbookEntrySnapshot[]> {
    const out: LogbookEntrySnapshot[] = [];
    for (const part of chunks([...new Set(ids)], 500))
      for (const r of await this.db.all<Row>(
        `SELECT * FROM logbook_entries WHERE tenant_id = ? AND id IN (${marks(part.length)}) ORDER BY id`,
        [tenantId, ...part],
      ))
        out.push(entryOf(r));
    return out;
  }

  list(tenantId: string, f: LogbookFilter, page: PageRequest): Promise<Page<LogbookEntrySnapshot>> {
    const q = this.qb('logbook_entries').select('*').where('tenant_id', tenantId);
    if (f.learnerId) q.where('learner_id', f.learnerId);
    if (f.moduleCode) q.where('module_code', f.moduleCode);
    if (f.status) q.where('status', f.status);
    return pageQuery(this.db, q, page, entryOf);
  }

  async listBySubmission(tenantId: string, submissionId: string): Promise<LogbookEntrySnapshot[]> {
    const rows = await this.db.all<Row>(
      'SELECT * FROM logbook_entries WHERE tenant_id = ? AND submission_id = ? ORDER BY id',
      [tenantId, submissionId],
    );
    return rows.map(entryOf);
  }

  async listForLearner(tenantId: string, learnerId: string): Promise<LogbookEntrySnapshot[]> {
    const rows = await this.db.all<Row>(
      'SELECT * FROM logbook_entries WHERE tenant_id = ? AND learner_id = ? ORDER BY id',
      [tenantId, learnerId],
    );
    return rows.map(entryOf);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    await this.db.run('DELETE FROM logbook_entries WHERE tenant_id = ? AND id = ?', [tenantId, id]);
  }

  async eraseLearner(tenantId: string, learnerId: string): Promise<number> {
    const entries = await this.listForLearner(tenantId, learnerId);
    for (const e of entries) await this.update(erasedEntry(e));
    return entries.length;
  }
}
