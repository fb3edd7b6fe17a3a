import { AUDIT_GENESIS } from '@fundi/domain/audit';
import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** The entry's JSON text as `chainTail` writes it; `to_json` of a text escapes exactly what JSON.stringify escapes. */
const TAIL = `${[
  'id',
  'tenant_id',
  'actor',
  'action',
  'resource_type',
  'resource_id',
  'learner_id',
  'at',
  'details',
  'changes',
  'personal_fields',
  'personal_digest',
  'via',
  'ip',
]
  .map((c) => `coalesce(to_json(NEW.${c})::text, 'null')`)
  .join(` || ',' || `)} || ']'`;

const sha = (text: string) => `encode(sha256(convert_to(${text}, 'UTF8')), 'hex')`;

/**
 * Postgres only: an audit entry written without its place in the chain (`seq` null) is chained when its
 * transaction commits, by a deferred constraint trigger (docs/architecture.md, "Writes: audit and outbox in one
 * transaction"). The trigger bumps the tenant's head (`audit_heads`, locked from there to the end of the commit, so
 * writers of one tenant still append one after the other and the chain cannot fork), computes the entry's hash over
 * `["<previous hash>",<seq>,` and the entry's other columns as JSON (`chainTail`'s text), and writes `seq`,
 * `prev_hash` and `hash` on the row. The head is then never held across a round trip to the client: a writer that
 * bumped it in its own statement held it until the process sent COMMIT, and under load the tenant's other writers
 * waited for that (docs/performance.md, "Writes and lists on Postgres"). Tables are found on the session's search
 * path, as the service's own statements find them. SQLite, one writer at a time, chains in the process.
 */
export const auditChainAtCommit: Migration = {
  name: 'platform/202611280845-audit-chain-at-commit',
  async up(knex: Knex) {
    if (!isPostgres(knex)) return;
    await knex.raw(`CREATE OR REPLACE FUNCTION fundi_audit_chain() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        tail text := ${TAIL};
        head record;
      BEGIN
        INSERT INTO audit_heads AS h (tenant_id, seq, hash, prev_hash)
          VALUES (NEW.tenant_id, 1, ${sha(`'["${AUDIT_GENESIS}",1,' || tail`)}, '${AUDIT_GENESIS}')
          ON CONFLICT (tenant_id) DO UPDATE SET seq = h.seq + 1, prev_hash = h.hash,
            hash = ${sha(`'["' || h.hash || '",' || (h.seq + 1) || ',' || tail`)}
          RETURNING h.seq, h.prev_hash, h.hash INTO head;
        UPDATE audit_log SET seq = head.seq, prev_hash = head.prev_hash, hash = head.hash
          WHERE tenant_id = NEW.tenant_id AND id = NEW.id;
        RETURN NULL;
      END $$`);
    await knex.raw(`CREATE CONSTRAINT TRIGGER audit_log_chain AFTER INSERT ON audit_log
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.seq IS NULL) EXECUTE FUNCTION fundi_audit_chain()`);
  },
  async down(knex: Knex) {
    if (!isPostgres(knex)) return;
    await knex.raw('DROP TRIGGER IF EXISTS audit_log_chain ON audit_log');
    await knex.raw('DROP FUNCTION IF EXISTS fundi_audit_chain()');
  },
};

function isPostgres(knex: Knex): boolean {
  return knex.client.config.client === 'pg';
}
