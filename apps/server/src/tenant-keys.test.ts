import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_TEST_URL, postgresAvailable, scratchDir } from '@fundi/adapters/testing';
import { migrateAll } from './capabilities/index.js';

/**
 * Every table of the schema (every capability's migrations, as `migrateAll` runs them) carries `tenant_id`, and its
 * primary key and each unique index lead with it: then any table can be partitioned by tenant, or distributed by
 * tenant on Citus, without rewriting its keys (docs/scaling.md). A table or key that cannot follow the rule is
 * listed below with its reason; an entry that no longer applies fails too, so the lists only shrink.
 */

/** Tables that serve every tenant at once, or none: they need no `tenant_id`, and their keys may lead with anything. */
const GLOBAL_TABLES: Record<string, string> = {
  tenants: 'the tenant registry itself: its `id` is the tenant id (a reference table on Citus)',
  knex_migrations: "the migration tool's record of applied migrations",
  knex_migrations_lock: "the migration tool's lock",
  auth_epoch:
    "one row for the whole deployment, bumped by every write to tenants or API keys so each process's key cache sees revocations",
  worker_lease: 'the SQLite worker lease: one row per deployment (unused on Postgres)',
  rate_limit_counters:
    'keyed by API key or by client address; anonymous limits are per address, before any tenant is known (UNLOGGED, short-lived)',
  outbox_pending:
    'the fan-out queue: event ids claimed by any worker across tenants (`FOR UPDATE SKIP LOCKED`), deleted once dispatched',
  import_errors:
    'predates the rule: a child of `imports` keyed (import_id, seq); adding `tenant_id` means a column backfilled from imports and a new key',
};

/** Keys of tenant tables that do not lead with `tenant_id`: `<table> primary key` or a unique index's name. */
const KEYS_NOT_LED_BY_TENANT: Record<string, string> = {
  // Looked up before the tenant is known.
  api_keys_hash_unique: 'authentication finds the tenant from the key: the hash must be unique across tenants',
  'dashboard_sessions primary key': 'the session cookie finds the tenant: its hash is unique across tenants',
  'portal_sessions primary key': "the learner portal's cookie finds the tenant: its hash is unique across tenants",
  'portal_sign_ins primary key': 'a sign-in link finds the tenant: the hash of its token is unique across tenants',
  statements_verification_code_unique:
    'the public verification page finds a statement by its code alone, before any tenant is known',
  // The job queue is claimed across tenants by every worker.
  'jobs primary key': 'the job queue: claims pick due jobs of every tenant; retention jobs have no tenant',
  jobs_idempotency_key_unique:
    'idempotency keys of recurring jobs (`recurring:<kind>@<time>`) are global; tenant jobs put their tenant in the key',
  // Predate the rule. Ids are unique across tenants (80 random bits), so leading with tenant_id adds no uniqueness;
  // the cost of each is a new unique index on (tenant_id, id) built concurrently, the constraint swapped to it, and
  // every foreign key that references the table made composite.
  'api_keys primary key': 'predates the rule (id)',
  'api_key_usage primary key': 'predates the rule (key_id, day): the key id implies the tenant',
  'assessments primary key': 'predates the rule (id)',
  'audit_log primary key': 'predates the rule (id)',
  'enrolment_status_changes primary key': 'predates the rule (id)',
  'enrolments primary key': 'predates the rule (id)',
  'evidence primary key': 'predates the rule (id)',
  'evidence_bundles primary key': 'predates the rule (id)',
  'evidence_upload_tickets primary key': 'predates the rule (id)',
  'evidence_versions primary key': 'predates the rule (evidence_id, version): the evidence id implies the tenant',
  'exports primary key': 'predates the rule (id)',
  'hr_events primary key': 'predates the rule (id)',
  'imports primary key': 'predates the rule (id)',
  'learners primary key': 'predates the rule (id); its unique indexes already lead with tenant_id',
  'moderation_samples primary key': 'predates the rule (id)',
  'moderations primary key': 'predates the rule (id)',
  moderations_assessment_unique: 'predates the rule (assessment_id): the assessment id implies the tenant',
  'notifications primary key': 'predates the rule (id)',
  'outbox_events primary key': 'predates the rule (id); outbox_pending refers to it by id alone',
  'programmes primary key': 'predates the rule (id)',
  'staff_credentials primary key': 'predates the rule (id)',
  'tenant_alerts primary key': 'predates the rule (id)',
  'webhook_attempts primary key': 'predates the rule (id)',
  'webhook_deliveries primary key': 'predates the rule (id)',
  'webhook_subscriptions primary key': 'predates the rule (id)',
};

interface Key {
  /** `<table> primary key`, or the unique index's name. */
  name: string;
  table: string;
  columns: string[];
}

interface Catalog {
  /** Every table, and whether it has a `tenant_id` column. */
  tables: Map<string, boolean>;
  /** Primary keys and unique indexes. */
  keys: Key[];
}

async function postgresCatalog(client: pg.Client, schema: string): Promise<Catalog> {
  const tables = await client.query<{ name: string; tenant: boolean }>(
    `SELECT c.relname AS name,
            EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id'
                    AND NOT a.attisdropped) AS tenant
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')`,
    [schema],
  );
  const keys = await client.query<{ table: string; index: string; primary: boolean; columns: string[] }>(
    `SELECT t.relname AS table, i.relname AS index, x.indisprimary AS primary,
            ARRAY(SELECT COALESCE(a.attname::text, '(expression)')
                  FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
                  LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
                  ORDER BY k.ord)::text[] AS columns
     FROM pg_index x
     JOIN pg_class t ON t.oid = x.indrelid
     JOIN pg_class i ON i.oid = x.indexrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = $1 AND x.indisunique`,
    [schema],
  );
  return {
    tables: new Map(tables.rows.map((r) => [r.name, r.tenant])),
    keys: keys.rows.map((r) => ({
      name: r.primary ? `${r.table} primary key` : r.index,
      table: r.table,
      columns: r.columns,
    })),
  };
}

function sqliteCatalog(db: Database.Database): Catalog {
  const tables = new Map<string, boolean>();
  const keys: Key[] = [];
  const names = db
    .prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
    .all();
  for (const { name } of names) {
    const columns = db.prepare<[], { name: string; pk: number }>(`PRAGMA table_info("${name}")`).all();
    tables.set(
      name,
      columns.some((c) => c.name === 'tenant_id'),
    );
    const pk = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    if (pk.length) keys.push({ name: `${name} primary key`, table: name, columns: pk.map((c) => c.name) });
    const indexes = db
      .prepare<[], { name: string; unique: number; origin: string }>(`PRAGMA index_list("${name}")`)
      .all()
      .filter((i) => i.unique && i.origin !== 'pk');
    for (const i of indexes) {
      const cols = db
        .prepare<[], { name: string | null; key: number }>(`PRAGMA index_xinfo("${i.name}")`)
        .all()
        .filter((c) => c.key)
        .map((c) => c.name ?? '(expression)');
      keys.push({ name: i.name, table: name, columns: cols });
    }
  }
  return { tables, keys };
}

/**
 * What breaks the rule and is not listed, and what is listed but no longer breaks it (or no longer exists).
 * `everyTable`: the catalog has every table (Postgres); SQLite lacks the Postgres-only ones (the rate-limit counters).
 */
function check(catalog: Catalog, everyTable = true): { unlisted: string[]; stale: string[] } {
  const unlisted: string[] = [];
  const breaking = new Set<string>();
  for (const [table, hasTenant] of catalog.tables) {
    if (table in GLOBAL_TABLES) continue;
    if (!hasTenant) unlisted.push(`table ${table} has no tenant_id column`);
  }
  for (const k of catalog.keys) {
    if (k.table in GLOBAL_TABLES || k.columns[0] === 'tenant_id') continue;
    breaking.add(k.name);
    if (!(k.name in KEYS_NOT_LED_BY_TENANT))
      unlisted.push(`${k.name} on ${k.table} (${k.columns.join(', ')}) does not lead with tenant_id`);
  }
  const stale = [
    ...Object.keys(GLOBAL_TABLES)
      .filter((t) => everyTable && !catalog.tables.has(t))
      .map((t) => `global table ${t} no longer exists`),
    ...Object.keys(KEYS_NOT_LED_BY_TENANT)
      .filter((k) => !breaking.has(k))
      .map((k) => `${k} now leads with tenant_id or no longer exists: remove it from the list`),
  ];
  return { unlisted, stale };
}

const pgUp = await postgresAvailable();

describe('every table and unique key leads with tenant_id, or is listed with its reason', () => {
  describe.runIf(pgUp)('[postgres]', () => {
    const schema = `t_keys_${randomBytes(5).toString('hex')}`;
    const client = new pg.Client({ connectionString: POSTGRES_TEST_URL });
    let catalog: Catalog;
    beforeAll(async () => {
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}`);
      await migrateAll({ kind: 'postgres', url: POSTGRES_TEST_URL, searchPath: schema });
      catalog = await postgresCatalog(client, schema);
    }, 120_000);
    afterAll(async () => {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    });

    it('lists every exception to the rule', () => {
      expect(catalog.tables.size).toBeGreaterThan(30);
      expect(check(catalog).unlisted).toEqual([]);
    });
    it('lists nothing that follows the rule or no longer exists', () => {
      expect(check(catalog).stale).toEqual([]);
    });
  });

  describe('[sqlite]', () => {
    let catalog: Catalog;
    beforeAll(async () => {
      const filename = join(scratchDir('fundi-keys-'), 'keys.sqlite');
      await migrateAll({ kind: 'sqlite', filename });
      const db = new Database(filename, { readonly: true });
      catalog = sqliteCatalog(db);
      db.close();
    }, 120_000);

    it('lists every exception to the rule', () => {
      expect(catalog.tables.size).toBeGreaterThan(30);
      expect(check(catalog).unlisted).toEqual([]);
    });
    it('lists nothing that follows the rule or no longer exists', () => {
      expect(check(catalog, false).stale).toEqual([]);
    });
  });

  it('fails a table without tenant_id and a unique index that does not lead with it', () => {
    const catalog: Catalog = {
      tables: new Map([
        ['learners', true],
        ['widgets', false],
      ]),
      keys: [
        { name: 'learners primary key', table: 'learners', columns: ['id'] },
        { name: 'widgets_code_unique', table: 'widgets', columns: ['code', 'tenant_id'] },
        { name: 'learners_tenant_id_number_unique', table: 'learners', columns: ['tenant_id', 'id_number'] },
      ],
    };
    expect(check(catalog).unlisted).toEqual([
      'table widgets has no tenant_id column',
      'widgets_code_unique on widgets (code, tenant_id) does not lead with tenant_id',
    ]);
  });
});
