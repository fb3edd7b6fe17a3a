import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Each tenant's chain head (`audit_heads`) also keeps the hash before its last one (`prev_hash`), so that a writer
 * that bumps the head and computes the new hash in one statement learns the previous hash from that statement's
 * answer (docs/architecture.md, "Writes: audit and outbox in one transaction"). Null for heads written before it,
 * which the next append fills.
 */
export const auditHeadPrev: Migration = {
  name: 'platform/202611271615-audit-head-prev',
  async up(knex: Knex) {
    await knex.schema.alterTable('audit_heads', (t) => {
      t.string('prev_hash');
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('audit_heads', (t) => {
      t.dropColumn('prev_hash');
    });
  },
};
