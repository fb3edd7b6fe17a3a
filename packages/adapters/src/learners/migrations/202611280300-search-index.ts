import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';
import { LEARNER_SEARCH_TEXT } from '../learner-search-text.js';

/**
 * Two indexes for the learner list (docs/performance.md, "Learner search"):
 * - `learners_live_tenant_name`, live learners by (tenant, lower(last name), lower(first name), id), on both
 *   databases: the list sorted by name reads its page from the index instead of sorting every learner of the tenant.
 * - `learners_search_trgm` on Postgres: a trigram GIN index (`pg_trgm`) over `LEARNER_SEARCH_TEXT`, which a search by
 *   words filters on, so a search reads the learners whose text holds each word's trigrams instead of every learner
 *   of the tenant. It does not lead with tenant_id (a GIN index of trigrams cannot without `btree_gin`): the
 *   tenant is a condition on the few rows it finds. Its pending list (`fastupdate`) is kept but held to 256 kB:
 *   written into the index at once, 10,000 learners took 1.1-1.3 s to insert against 0.2 s with a list; with the
 *   default list of 4 MB the entries of an import waited there for a vacuum, every search scanned them, and the
 *   planner priced the index above reading the tenant's learners (searches of 41-54 ms right after the bench's
 *   import, against 1-10 ms). `pg_trgm` is trusted since Postgres 13, so a database owner may
 *   create it; it goes in `public` when that schema can take it (a schema that tests and benches drop would take
 *   the extension, and every index over it, with it), else in the current schema. Where it can be neither found nor
 *   created, the index is left out and a search reads every learner of the tenant as before.
 */
export const learnerSearchIndexMigration: Migration = {
  name: 'learners/202611280300-search-index',
  async up(knex: Knex) {
    await knex.raw(`CREATE INDEX IF NOT EXISTS learners_live_tenant_name
      ON learners (tenant_id, lower(last_name), lower(first_name), id) WHERE erased_at IS NULL`);
    if (knex.client.config.client !== 'pg') return;
    const schema = (await trigramSchema(knex)) ?? (await createTrigrams(knex));
    if (schema === null) return;
    await knex.raw(
      `CREATE INDEX IF NOT EXISTS learners_search_trgm ON learners USING gin ((${LEARNER_SEARCH_TEXT}) ??.gin_trgm_ops) WITH (gin_pending_list_limit = 256)`,
      [schema],
    );
  },
  async down(knex: Knex) {
    // The extension stays: other schemas of the database may use it.
    await knex.raw('DROP INDEX IF EXISTS learners_search_trgm');
    await knex.raw('DROP INDEX IF EXISTS learners_live_tenant_name');
  },
};

/** The schema `pg_trgm` is installed in, or null when it is not. */
async function trigramSchema(knex: Knex): Promise<string | null> {
  const found = await knex.raw<{ rows: { schema: string }[] }>(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
      WHERE e.extname = 'pg_trgm'`,
  );
  return found.rows[0]?.schema ?? null;
}

/**
 * Creates `pg_trgm` in `public`, else in the current schema, each try in a savepoint so that a refusal (no right to
 * create it, or another migration creating it at the same moment) leaves the migration's transaction usable; answers
 * the schema it is then in, or null.
 */
async function createTrigrams(knex: Knex): Promise<string | null> {
  for (const statement of [
    'CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public',
    'CREATE EXTENSION IF NOT EXISTS pg_trgm',
  ]) {
    try {
      await knex.transaction((t) => t.raw(statement));
      break;
    } catch {
      // Refused: the next place, or no index.
    }
  }
  return trigramSchema(knex);
}
