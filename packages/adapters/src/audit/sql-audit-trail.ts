import type { Page, PageRequest } from '@fundi/domain';
import {
  entryOfRow,
  type AuditFilter,
  type AuditRecord,
  type AuditTrail,
  type ChainRow,
  type PersonalValues,
} from '@fundi/domain/audit';
import type { Knex } from 'knex';
import { compile } from '../db/query-builder.js';
import type { SqlDb } from '../db/sql-db.js';
import { chainRowOf, personalOf, type AuditRow } from './audit-rows.js';

/** An entry read back with its personal values, while they are kept. */
export function recordOf(row: ChainRow, personal: PersonalValues | undefined): AuditRecord {
  return {
    ...entryOfRow(row),
    personalFields: row.personalFields ? (JSON.parse(row.personalFields) as string[]) : [],
    personalValues: personal ? JSON.parse(personal.data) : null,
  };
}

/** Reads the audit trail (`audit_log`, written by the platform's `SqlAuditLog`) and walks its chain. */
export class SqlAuditTrail implements AuditTrail {
  constructor(
    private readonly db: SqlDb,
    private readonly qb: Knex,
  ) {}

  async list(tenantId: string, f: AuditFilter, page: PageRequest): Promise<Page<AuditRecord>> {
    const base = this.qb('audit_log').where('tenant_id', tenantId);
    if (f.entityType) base.where('resource_type', f.entityType);
    if (f.entityId) base.where('resource_id', f.entityId);
    if (f.entityIds) base.whereIn('resource_id', [...f.entityIds]);
    if (f.learnerId) base.where('learner_id', f.learnerId);
    if (f.actorId) base.where('actor', f.actorId);
    if (f.action) base.where('action', f.action);
    if (f.from) base.where('at', '>=', f.from);
    if (f.to) base.where('at', '<=', f.to);
    const count = compile(base.clone().count({ n: '*' }));
    const rowsQuery = base
      .clone()
      .select('*')
      .orderBy('id', 'desc')
      .limit(page.limit + 1);
    if (page.kind === 'cursor' && page.after) rowsQuery.where('id', '<', page.after);
    if (page.kind === 'offset' && page.offset > 0) rowsQuery.offset(page.offset);
    const q = compile(rowsQuery);
    const [total, found] = await Promise.all([
      this.db.first<{ n: number | string }>(count.sql, count.bindings),
      this.db.all<AuditRow>(q.sql, q.bindings),
    ]);
    const rows = found.slice(0, page.limit).map(chainRowOf);
    const personal = await this.personal(rows.filter((r) => r.personalFields !== null).map((r) => r.id));
    return {
      items: rows.map((r) => recordOf(r, personal.get(r.id))),
      total: Number(total?.n ?? 0),
      hasMore: found.length > page.limit,
    };
  }

  async chain(tenantId: string, afterSeq: number, limit: number) {
    const rows = (
      await this.db.all<AuditRow>('SELECT * FROM audit_log WHERE tenant_id = ? AND seq > ? ORDER BY seq LIMIT ?', [
        tenantId,
        afterSeq,
        limit,
      ])
    ).map(chainRowOf);
    const personal = await this.personal(rows.filter((r) => r.personalFields !== null).map((r) => r.id));
    return { rows, personal: [...personal.values()] };
  }

  async head(tenantId: string) {
    const r = await this.db.first<AuditRow>('SELECT seq, hash FROM audit_heads WHERE tenant_id = ?', [tenantId]);
    return r ? { seq: Number(r.seq), hash: String(r.hash) } : null;
  }

  private async personal(ids: string[]): Promise<Map<string, PersonalValues>> {
    if (ids.length === 0) return new Map();
    const q = compile(this.qb('audit_personal').select('*').whereIn('entry_id', ids));
    const rows = await this.db.all<AuditRow>(q.sql, q.bindings);
    return new Map(rows.map((r) => [String(r.entry_id), personalOf(r)]));
  }
}
