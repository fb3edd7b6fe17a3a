import { expect, it } from 'vitest';
import { knexFor } from '../db/open-database.js';
import { logbookStorage } from '../logbooks/logbook-storage.js';
import { logbookTenantKey } from '../logbooks/migrations/202611271607-tenant-key.js';
import { auditPersonalTenantKey } from '../platform/migrations/202611271607-audit-personal-tenant-key.js';
import { statementTenantKey } from '../statements/migrations/202611271607-tenant-key.js';
import { statementStorage } from '../statements/statement-storage.js';
import { migrationsOf } from '../storage/capability-storage.js';
import { describeEachStorage } from '../testing/each-storage.js';
import { CORE_STORAGE } from '../testing/test-databases.js';
import { migrationSource } from './migration.js';

const PARTS = [...CORE_STORAGE, logbookStorage, statementStorage] as const;
const source = migrationSource(migrationsOf(PARTS));

const statement = (tenant: string, id: string, code: string) => ({
  id,
  tenant_id: tenant,
  learner_id: 'lrn_1',
  enrolment_id: 'enr_1',
  programme_code: 'P1',
  programme_name: 'Programme',
  outcome: 'competent',
  modules: '[]',
  verification_code: code,
  sha256: 'ab'.repeat(32),
  size: 10,
  storage_key: `k/${id}`,
  holder: 'A. Person',
  issued_at: '2026-11-27T10:00:00.000Z',
  issued_by: 'usr_1',
  revoked_at: null,
  revoked_by: null,
  revoke_reason: null,
});
const entry = (tenant: string, id: string) => ({
  id,
  tenant_id: tenant,
  learner_id: 'lrn_1',
  enrolment_id: 'enr_1',
  module_code: 'M1',
  date: '2026-11-20',
  hours: 2.5,
  activity: 'Wiring',
  workplace: 'Site',
  supervisor: '{}',
  evidence_ids: '[]',
  status: 'draft',
  submitted_at: null,
  signed_at: null,
  sign_off: null,
  created_by: 'usr_1',
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
});
const personal = (tenant: string, id: string) => ({
  entry_id: id,
  tenant_id: tenant,
  learner_id: 'lrn_1',
  salt: 'salt',
  data: '{"firstName":"Thandi"}',
});

/** `audit_personal`, `logbook_entries` and `statements` are re-keyed on (tenant_id, id), every row kept. */
describeEachStorage(
  'migrations keying audit_personal, logbook_entries and statements by tenant',
  (get) => {
    it('keeps every row and keys each table on (tenant_id, id)', async () => {
      const knex = knexFor(get().target!);
      try {
        for (const m of [statementTenantKey, logbookTenantKey, auditPersonalTenantKey])
          await knex.migrate.down({ migrationSource: source, name: m.name });
        const rows = {
          statements: [statement('ten_a', 'stm_1', 'CODE1'), statement('ten_b', 'stm_2', 'CODE2')],
          logbook_entries: [entry('ten_a', 'lbe_1'), entry('ten_b', 'lbe_2')],
          audit_personal: [personal('ten_a', 'aud_1'), personal('ten_b', 'aud_2')],
        };
        for (const [table, list] of Object.entries(rows)) await knex(table).insert(list);
        await knex.migrate.latest({ migrationSource: source });

        for (const [table, list] of Object.entries(rows)) {
          const key = table === 'audit_personal' ? 'entry_id' : 'id';
          const back = await knex(table).select('*').orderBy(key);
          // Every row kept with its values; columns that later migrations add may stand beside them.
          expect(back.map((r) => ({ ...r, ...('hours' in r ? { hours: Number(r.hours) } : {}) }))).toMatchObject(list);
        }
        // The key is (tenant_id, id): the same id again in its tenant is refused, in another tenant it is not.
        await expect(knex('statements').insert(statement('ten_a', 'stm_1', 'CODE3'))).rejects.toThrow();
        await knex('statements').insert(statement('ten_b', 'stm_1', 'CODE3'));
        await expect(knex('logbook_entries').insert(entry('ten_a', 'lbe_1'))).rejects.toThrow();
        await knex('logbook_entries').insert(entry('ten_b', 'lbe_1'));
        await expect(knex('audit_personal').insert(personal('ten_a', 'aud_1'))).rejects.toThrow();
        await knex('audit_personal').insert(personal('ten_b', 'aud_1'));
        // The verification code stays unique across tenants.
        await expect(knex('statements').insert(statement('ten_c', 'stm_9', 'CODE1'))).rejects.toThrow();
      } finally {
        await knex.destroy();
      }
    });
  },
  ['sqlite', 'postgres'],
  PARTS,
);
