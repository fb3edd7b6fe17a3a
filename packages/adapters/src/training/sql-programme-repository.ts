import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import type { ProgrammeRepository, ProgrammeSnapshot, ProgrammeType } from '@fundi/domain/training';
import type { Knex } from 'knex';
import type { SqlDb } from '../db/sql-db.js';
import { compile } from '../db/query-builder.js';
import { mapUnique } from '../db/conflicts.js';
import { pageQuery } from '../db/paging.js';
import { PROGRAMME_COLUMNS, insertSql, programmeValues, rowToProgramme, type Row } from './training-rows.js';

const UNIQUE = [
  {
    column: 'code',
    error: () =>
      DomainError.conflict('duplicate_programme_code', 'A programme with this code already exists', [
        { field: 'code', message: 'is already used by another programme' },
      ]),
  },
];
const INSERT = insertSql('programmes', PROGRAMME_COLUMNS);
const UPDATE =
  'UPDATE programmes SET name = ?, type = ?, qualification_id = ?, nqf_level = ?, modules = ?, status = ?, retired_at = ?, updated_at = ? WHERE tenant_id = ? AND id = ?';

export class SqlProgrammeRepository implements ProgrammeRepository {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  async insert(p: ProgrammeSnapshot): Promise<void> {
    await mapUnique(this.db.dialect, UNIQUE, () => this.db.run(INSERT, programmeValues(p)));
  }

  async update(p: ProgrammeSnapshot): Promise<void> {
    const { changes } = await this.db.run(UPDATE, [
      p.name,
      p.type,
      p.qualificationId,
      p.nqfLevel,
      JSON.stringify(p.modules),
      p.status,
      p.retiredAt,
      p.updatedAt,
      p.tenantId,
      p.id,
    ]);
    if (changes === 0) throw DomainError.notFound('programme', p.id);
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM programmes WHERE tenant_id = ? AND id = ?', [tenantId, id])).changes > 0;
  }

  async findById(tenantId: string, id: string): Promise<ProgrammeSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM programmes WHERE tenant_id = ? AND id = ?', [tenantId, id]);
    return r ? rowToProgramme(r) : null;
  }

  async findByCode(tenantId: string, code: string): Promise<ProgrammeSnapshot | null> {
    const r = await this.db.first<Row>('SELECT * FROM programmes WHERE tenant_id = ? AND code = ?', [tenantId, code]);
    return r ? rowToProgramme(r) : null;
  }

  async findByIds(tenantId: string, ids: readonly string[]): Promise<ProgrammeSnapshot[]> {
    if (ids.length === 0) return [];
    // The usual case (one programme) takes the fixed, prepared statement instead of a composed one.
    if (ids.length === 1) return this.findById(tenantId, ids[0]!).then((p) => (p ? [p] : []));
    const { sql, bindings } = compile(
      this.qb('programmes')
        .select('*')
        .where('tenant_id', tenantId)
        .whereIn('id', [...ids]),
    );
    return (await this.db.all<Row>(sql, bindings)).map(rowToProgramme);
  }

  list(
    tenantId: string,
    filter: { status?: 'active' | 'retired'; type?: ProgrammeType },
    page: PageRequest,
  ): Promise<Page<ProgrammeSnapshot>> {
    const q = this.qb('programmes').select('*').where('tenant_id', tenantId);
    if (filter.status) q.where('status', filter.status);
    if (filter.type) q.where('type', filter.type);
    return pageQuery(this.db, q, page, rowToProgramme);
  }
}
