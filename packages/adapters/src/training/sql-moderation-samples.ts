import type { Page, PageRequest } from '@fundi/domain';
import type { ModerationSampleRepository, ModerationSampleSnapshot } from '@fundi/domain/training';
import type { Knex } from 'knex';
import type { SqlDb } from '../db/sql-db.js';
import type { Row } from '../db/sql-helpers.js';
import { pageQuery } from '../db/paging.js';
import { insertSql } from './training-rows.js';

const COLUMNS = [
  'id',
  'tenant_id',
  'programme_id',
  'programme_code',
  'from_date',
  'to_date',
  'percent',
  'population',
  'already_moderated',
  'assessment_ids',
  'due_by',
  'drawn_by',
  'drawn_at',
] as const;
const INSERT = insertSql('moderation_samples', COLUMNS);
const BY_ID = 'SELECT * FROM moderation_samples WHERE tenant_id = ? AND id = ?';

const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

function rowToSample(r: Row): ModerationSampleSnapshot {
  return {
    id: String(r.id),
    tenantId: String(r.tenant_id),
    programmeId: String(r.programme_id),
    programmeCode: String(r.programme_code),
    from: text(r.from_date),
    to: text(r.to_date),
    percent: Number(r.percent),
    population: Number(r.population),
    alreadyModerated: Number(r.already_moderated),
    assessmentIds: JSON.parse(String(r.assessment_ids)) as string[],
    dueBy: String(r.due_by),
    drawnBy: String(r.drawn_by),
    drawnAt: String(r.drawn_at),
  };
}

export class SqlModerationSampleRepository implements ModerationSampleRepository {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  async insert(s: ModerationSampleSnapshot): Promise<void> {
    await this.db.run(INSERT, [
      s.id,
      s.tenantId,
      s.programmeId,
      s.programmeCode,
      s.from,
      s.to,
      s.percent,
      s.population,
      s.alreadyModerated,
      JSON.stringify(s.assessmentIds),
      s.dueBy,
      s.drawnBy,
      s.drawnAt,
    ]);
  }

  async findById(tenantId: string, id: string): Promise<ModerationSampleSnapshot | null> {
    const r = await this.db.first<Row>(BY_ID, [tenantId, id]);
    return r ? rowToSample(r) : null;
  }

  list(tenantId: string, f: { programmeId?: string }, page: PageRequest): Promise<Page<ModerationSampleSnapshot>> {
    const q = this.qb('moderation_samples').select('*').where('tenant_id', tenantId);
    if (f.programmeId) q.where('programme_id', f.programmeId);
    return pageQuery(this.db, q, page, rowToSample);
  }
}
