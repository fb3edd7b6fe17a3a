import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import type {
  AssessmentFilter,
  AssessmentRepository,
  AssessmentSnapshot,
  ModerationSnapshot,
} from '@fundi/domain/training';
import type { Knex } from 'knex';
import type { SqlDb } from '../db/sql-db.js';
import { compile } from '../db/query-builder.js';
import { mapUnique } from '../db/conflicts.js';
import { pageQuery } from '../db/paging.js';
import {
  ASSESSMENT_COLUMNS,
  ASSESSMENT_SELECT,
  MODERATION_ALIASES,
  assessmentValues,
  rowToAssessment,
} from './assessment-rows.js';
import { insertSql, type Row } from './training-rows.js';

const INSERT = insertSql('assessments', ASSESSMENT_COLUMNS);
const INSERT_MODERATION = insertSql('moderations', [
  'id',
  'tenant_id',
  'assessment_id',
  'decision',
  'notes',
  'moderator_id',
  'moderator_email',
  'moderated_at',
]);
const BY_ID = `${ASSESSMENT_SELECT} WHERE a.tenant_id = ? AND a.id = ?`;
const SUMMATIVE_OF_ENROLMENT = `${ASSESSMENT_SELECT} WHERE a.tenant_id = ? AND a.enrolment_id = ? AND a.assessment_type = 'summative' ORDER BY a.id`;
const MODERATED = [
  {
    column: 'assessment',
    error: () => DomainError.conflict('already_moderated', 'This assessment has already been moderated'),
  },
];

export class SqlAssessmentRepository implements AssessmentRepository {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  async insert(a: AssessmentSnapshot): Promise<void> {
    await this.db.run(INSERT, assessmentValues(a));
  }

  async findById(tenantId: string, id: string): Promise<AssessmentSnapshot | null> {
    const r = await this.db.first<Row>(BY_ID, [tenantId, id]);
    return r ? rowToAssessment(r) : null;
  }

  async findByIds(tenantId: string, ids: readonly string[]): Promise<AssessmentSnapshot[]> {
    const out: AssessmentSnapshot[] = [];
    // In parts of 500, under SQLite's limit of bound parameters; one statement for a sample of up to 500.
    for (let i = 0; i < ids.length; i += 500) {
      const among = this.db.dialect.inTexts(ids.slice(i, i + 500));
      const rows = await this.db.all<Row>(`${ASSESSMENT_SELECT} WHERE a.tenant_id = ? AND a.id ${among.sql}`, [
        tenantId,
        ...among.bindings,
      ]);
      for (const r of rows) out.push(rowToAssessment(r));
    }
    return out;
  }

  list(tenantId: string, f: AssessmentFilter, page: PageRequest): Promise<Page<AssessmentSnapshot>> {
    const q = this.joined().where('a.tenant_id', tenantId);
    if (f.learnerId) q.where('a.learner_id', f.learnerId);
    if (f.enrolmentId) q.where('a.enrolment_id', f.enrolmentId);
    if (f.moduleCode) q.where('a.module_code', f.moduleCode);
    if (f.outcome) q.where('a.outcome', f.outcome);
    if (f.assessmentType) q.where('a.assessment_type', f.assessmentType);
    if (f.from) q.where('a.assessment_date', '>=', f.from);
    if (f.to) q.where('a.assessment_date', '<=', f.to);
    // Assessment.updatedAt: the moderation's time when moderated, else the creation.
    if (f.updatedFrom) q.whereRaw('COALESCE(m.moderated_at, a.created_at) >= ?', [f.updatedFrom]);
    if (f.updatedTo) q.whereRaw('COALESCE(m.moderated_at, a.created_at) <= ?', [f.updatedTo]);
    return pageQuery(this.db, q, page, rowToAssessment, 'a.id');
  }

  async summativeForEnrolments(tenantId: string, enrolmentIds: readonly string[]): Promise<AssessmentSnapshot[]> {
    if (enrolmentIds.length === 0) return [];
    if (enrolmentIds.length === 1)
      return (await this.db.all<Row>(SUMMATIVE_OF_ENROLMENT, [tenantId, enrolmentIds[0]!])).map(rowToAssessment);
    // Sorted here, not by the database: with ORDER BY id the SQLite planner walked the tenant's (tenant, id) index
    // through every assessment (about 50 ms at 50,000) instead of probing (tenant, enrolment, id) per enrolment.
    const q = this.joined()
      .where('a.tenant_id', tenantId)
      .whereIn('a.enrolment_id', [...enrolmentIds])
      .where('a.assessment_type', 'summative');
    const { sql, bindings } = compile(q);
    const rows = (await this.db.all<Row>(sql, bindings)).map(rowToAssessment);
    return rows.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  }

  async ofEnrolments(tenantId: string, enrolmentIds: readonly string[]): Promise<AssessmentSnapshot[]> {
    if (enrolmentIds.length === 0) return [];
    const among = this.db.dialect.inTexts(enrolmentIds);
    const q = this.joined()
      .where('a.tenant_id', tenantId)
      .whereRaw(
        `a.enrolment_id ${among.sql}`,
        among.bindings.map((b) => b ?? null),
      );
    const { sql, bindings } = compile(q);
    // Sorted here for the reason `summativeForEnrolments` gives.
    const rows = (await this.db.all<Row>(sql, bindings)).map(rowToAssessment);
    return rows.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  }

  async summativeForProgramme(
    tenantId: string,
    programmeId: string,
    range: { from: string | null; to: string | null },
  ): Promise<AssessmentSnapshot[]> {
    const q = this.joined()
      .where({ 'a.tenant_id': tenantId, 'a.programme_id': programmeId, 'a.assessment_type': 'summative' })
      .orderBy('a.id');
    if (range.from) q.where('a.assessment_date', '>=', range.from);
    if (range.to) q.where('a.assessment_date', '<=', range.to);
    const { sql, bindings } = compile(q);
    return (await this.db.all<Row>(sql, bindings)).map(rowToAssessment);
  }

  async assessedModules(tenantId: string, programmeId: string): Promise<string[]> {
    const rows = await this.db.all<{ module_code: string }>(
      'SELECT DISTINCT module_code FROM assessments WHERE tenant_id = ? AND programme_id = ?',
      [tenantId, programmeId],
    );
    return rows.map((r) => r.module_code);
  }

  async addModeration(m: ModerationSnapshot): Promise<void> {
    await mapUnique(this.db.dialect, MODERATED, () =>
      this.db.run(INSERT_MODERATION, [
        m.id,
        m.tenantId,
        m.assessmentId,
        m.decision,
        m.notes,
        m.moderatorId,
        m.moderatorEmail,
        m.moderatedAt,
      ]),
    );
  }

  private joined(): Knex.QueryBuilder {
    return this.qb({ a: 'assessments' })
      .leftJoin({ m: 'moderations' }, 'm.assessment_id', 'a.id')
      .select('a.*', MODERATION_ALIASES);
  }
}
