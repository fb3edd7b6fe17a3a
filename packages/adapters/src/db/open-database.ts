import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { renameFormerMigrations } from '../migrations/former-names.js';
import { migrationSource, type Migration } from '../migrations/migration.js';
import { PostgresDb, pgDriver } from './postgres-db.js';
import { SqliteDb } from './sqlite-db.js';
import type { SqlDb } from './sql-db.js';

export type DatabaseTarget =
  | { kind: 'sqlite'; filename: string }
  | { kind: 'postgres'; url: string; searchPath?: string; poolMax?: number };

/** knex, used for migrations; our repositories run their SQL through `SqlDb`. */
export function knexFor(target: DatabaseTarget): Knex {
  if (target.kind === 'sqlite') {
    return knexFactory({ client: 'better-sqlite3', connection: { filename: target.filename }, useNullAsDefault: true });
  }
  pgDriver(); // the same driver and type parsers as the repositories'
  return knexFactory({
    client: 'pg',
    connection: { connectionString: target.url, user: new URL(target.url).username || 'postgres' },
    pool: { min: 0, max: 2 },
    ...(target.searchPath ? { searchPath: [target.searchPath] } : {}),
  });
}

/**
 * Applies every pending migration of the list (every capability's, in run order: see `migrationsOf`), after renaming
 * knex's records of migrations known by a former name (`renameFormerMigrations`); returns the names applied. Safe to
 * run from several processes.
 */
export async function migrate(target: DatabaseTarget, migrations: readonly Migration[]): Promise<string[]> {
  if (target.kind === 'sqlite') mkdirSync(dirname(target.filename), { recursive: true });
  const knex = knexFor(target);
  try {
    await renameFormerMigrations(knex, migrations);
    const [, applied] = (await knex.migrate.latest({ migrationSource: migrationSource(migrations) })) as [
      number,
      string[],
    ];
    if (target.kind === 'postgres' && applied.length > 0) await analyzeSchema(knex);
    return applied;
  } finally {
    await knex.destroy();
  }
}

/**
 * Gives the planner statistics for every table of the schema just migrated, instead of the guesses it makes for a
 * never-analysed table. Statistics of empty tables age fast under a first backlog, so the statements whose plans
 * mattered (the batched outcome updates) also name their rows by primary key whatever the statistics. Only the
 * current schema's tables, so tests with a schema each do not analyse each other's.
 */
async function analyzeSchema(knex: Knex): Promise<void> {
  const result = (await knex.raw(
    `SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables
     WHERE schemaname = current_schema()`,
  )) as { rows: { name: string }[] };
  for (const { name } of result.rows) await knex.raw(`ANALYZE ${name}`);
}

export function openDatabase(target: DatabaseTarget): SqlDb {
  if (target.kind === 'sqlite') {
    mkdirSync(dirname(target.filename), { recursive: true });
    return new SqliteDb(target.filename);
  }
  return PostgresDb.connect(target.url, { max: target.poolMax, searchPath: target.searchPath });
}
