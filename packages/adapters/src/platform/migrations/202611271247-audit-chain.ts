import { AUDIT_GENESIS, chainHash, type ChainRow } from '@fundi/domain/audit';
import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

type Stored = Record<string, string | number | null>;

/**
 * The audit trail made readable and tamper-evident (docs/api.md, "Audit trail"). Changes `audit_log`: the learner an entry concerns, the fields it changed, its origin (`via`, `ip`), and its place in the
 * tenant's hash chain (`seq`, `prev_hash`, `hash`). Adds `audit_heads` (each tenant's last seq and hash, the row
 * writers lock to append) and `audit_personal` (personal values of entries, removed when their learner is erased).
 * Entries written before it get their learner from the enrolment, assessment or evidence they name (reading the
 * training and evidence capabilities' tables), and are chained in id order.
 */
export const auditChainMigration: Migration = {
  name: 'platform/202611271247-audit-chain',
  async up(knex: Knex) {
    await knex.schema.alterTable('audit_log', (t) => {
      t.string('learner_id');
      t.text('changes');
      t.text('personal_fields');
      t.string('personal_digest');
      t.string('via');
      t.string('ip');
      t.bigInteger('seq');
      t.string('prev_hash');
      t.string('hash');
    });
    await knex.schema.createTable('audit_heads', (t) => {
      t.string('tenant_id').primary();
      t.bigInteger('seq').notNullable();
      t.string('hash').notNullable();
    });
    await knex.schema.createTable('audit_personal', (t) => {
      t.string('entry_id').primary();
      t.string('tenant_id').notNullable();
      t.string('learner_id');
      t.string('salt').notNullable();
      t.text('data').notNullable();
      t.index(['tenant_id', 'learner_id']);
    });
    await knex('audit_log')
      .where('resource_type', 'learner')
      .update({ learner_id: knex.ref('resource_id') });
    for (const [type, table] of [
      ['enrolment', 'enrolments'],
      ['assessment', 'assessments'],
      ['evidence', 'evidence'],
    ] as const) {
      // Read from the learners' tables when they exist (a store of the platform alone has none).
      if (!(await knex.schema.hasTable(table))) continue;
      await knex('audit_log')
        .where('resource_type', type)
        .update({
          learner_id: knex(table).select('learner_id').where(`${table}.id`, knex.ref('audit_log.resource_id')),
        });
    }
    await chainExisting(knex);
    await knex.schema.alterTable('audit_log', (t) => {
      t.unique(['tenant_id', 'seq']);
      t.index(['tenant_id', 'id']);
      t.index(['tenant_id', 'learner_id', 'id']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('audit_personal');
    await knex.schema.dropTable('audit_heads');
    await knex.schema.alterTable('audit_log', (t) => {
      t.dropUnique(['tenant_id', 'seq']);
      t.dropIndex(['tenant_id', 'id']);
      t.dropIndex(['tenant_id', 'learner_id', 'id']);
      for (const c of [
        'learner_id',
        'changes',
        'personal_fields',
        'personal_digest',
        'via',
        'ip',
        'seq',
        'prev_hash',
        'hash',
      ])
        t.dropColumn(c);
    });
  },
};

/** Chains the entries already written, tenant by tenant in id order, in pages of 1,000. */
async function chainExisting(knex: Knex): Promise<void> {
  const heads = new Map<string, { seq: number; hash: string }>();
  let after = '';
  for (;;) {
    const rows: Stored[] = await knex('audit_log').where('id', '>', after).orderBy('id').limit(1000);
    if (rows.length === 0) break;
    for (const r of rows) {
      const tenantId = String(r.tenant_id);
      const prev = heads.get(tenantId) ?? { seq: 0, hash: AUDIT_GENESIS };
      const row: Omit<ChainRow, 'hash'> = {
        id: String(r.id),
        tenantId,
        seq: prev.seq + 1,
        prevHash: prev.hash,
        actor: String(r.actor),
        action: String(r.action),
        resourceType: String(r.resource_type),
        resourceId: String(r.resource_id),
        learnerId: r.learner_id === null ? null : String(r.learner_id),
        at: String(r.at),
        details: String(r.details),
        changes: null,
        personalFields: null,
        personalDigest: null,
        via: null,
        ip: null,
      };
      const hash = chainHash(row);
      await knex('audit_log').where('id', row.id).update({ seq: row.seq, prev_hash: row.prevHash, hash });
      heads.set(tenantId, { seq: row.seq, hash });
    }
    after = String(rows.at(-1)!.id);
  }
  for (const [tenantId, h] of heads)
    await knex('audit_heads').insert({ tenant_id: tenantId, seq: h.seq, hash: h.hash });
}
