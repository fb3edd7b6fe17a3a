import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { renameFormerMigrations } from '../migrations/former-names.js';
import { migrationSource, type Migration } from '../migrations/migration.js';
import { PostgresDb } from './postgres-db.js';
import { pgDriver } from './postgres-statements.js';
import { SqliteDb } from './sqlite-db.js';
import type { SqlDb } from './sql-db.js';

export type DatabaseTarget =
  | { kind: 'sqlite'; filename: string }
  | { kind: 'postgres'; url: string; searchPath?: string; poolMax?: number };

/** knex, used for migrations; our repositories run their SQL through `SqlDb`. */
export function knexFor(target: DatabaseTarget): Knex {
  if (target.kind === 'sqlite') {
    return knexFactory({
      client: 'better-sqlite3',
      connection: { filename: target.filename },
      useNullAsDefault: true,
      // The journal the server keeps (SqliteDb), and no busy wait: better-sqlite3 waits for a lock by blocking its
      // thread, so a lock another process holds fails at once and `migrate` tries again after an asynchronous pause
      // (every migration runs in one transaction, so a failed try leaves nothing behind).
      pool: {
        afterCreate: (conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) => {
          conn.pragma('busy_timeout = 0');
          try {
            conn.pragma('journal_mode = WAL');
          } catch {
            // Busy: another process is switching the new file to WAL, which holds for every connection.
          }
          done(null, conn);
        },
      },
    });
  }
  pgDriver(); // the same driver and type parsers as the repositories'
  return knexFactory({
    client: 'pg',
    connection: { connectionString: target.url, user: new URL(target.url).username || 'postgres' },
    pool: { min: 0, max: 2 },
    ...(target.searchPath ? { searchPath: [target.searchPath] } : {}),
  });
}

/** knex's table of the one row that says whether a process is migrating. */
const MIGRATIONS_LOCK_TABLE = 'knex_migrations_lock';

/** How long a process waits for another one's migrations (knex's migration lock) before it gives up. */
export const MIGRATION_LOCK_WAIT_MS = 120_000;

/**
 * Applies every pending migration of the list (every capability's, in run order: see `migrationsOf`), after renaming
 * knex's records of migrations known by a former name (`renameFormerMigrations`); returns the names applied. Safe to
 * run from several processes at once: knex refuses its migration lock at once while another process holds it (and
 * takes it even when nothing is pending), so a process that finds it held tries again, waiting a little longer each
 * time, for up to `MIGRATION_LOCK_WAIT_MS`; by then the other has usually applied everything.
 */
export async function migrate(
  target: DatabaseTarget,
  migrations: readonly Migration[],
  waitMs = MIGRATION_LOCK_WAIT_MS,
): Promise<string[]> {
  const deadline = Date.now() + waitMs;
  let raced = 0;
  for (let pause = 25; ; pause = Math.min(pause * 2, 1000)) {
    try {
      return await migrateOnce(target, migrations);
    } catch (e) {
      // On a new database the processes also race to create knex's own tables: the losers try again (a few times
      // only, so that a migration that really creates a table twice still fails soon).
      if (isRaceToCreate(e) && ++raced <= 5) continue;
      if (!isHeldByAnother(e)) throw e;
      await dropExtraLockRows(target);
      if (Date.now() + pause > deadline)
        throw new Error(
          `the database's migrations stayed locked by another process for ${Math.round(waitMs / 1000)} s (${e instanceof Error ? e.message : String(e)}); if no other process is migrating, a crash left the lock: set is_locked = 0 in knex_migrations_lock`,
          { cause: e },
        );
      await new Promise((ok) => setTimeout(ok, pause));
    }
  }
}

/**
 * knex's lock table holds one row; processes that created it at once may each have added theirs, and with two rows
 * knex's lock can never be taken (it must update exactly one). The extra rows say nothing: they are deleted.
 */
async function dropExtraLockRows(target: DatabaseTarget): Promise<void> {
  const knex = knexFor(target);
  try {
    if (!(await knex.schema.hasTable(MIGRATIONS_LOCK_TABLE))) return;
    await knex(MIGRATIONS_LOCK_TABLE).whereNotIn('index', knex(MIGRATIONS_LOCK_TABLE).min('index')).delete();
  } catch {
    // Busy or gone: the next try looks again.
  } finally {
    await knex.destroy();
  }
}

/** knex's migration lock taken by another process, or (SQLite) the database's write lock. */
function isHeldByAnother(e: unknown): e is Error {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  return e.name === 'MigrationLocked' || (typeof code === 'string' && code.startsWith('SQLITE_BUSY'));
}

/** A table or its type created by another process between knex's look and its CREATE TABLE. */
function isRaceToCreate(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  return (
    code === '42P07' ||
    code === '42710' ||
    // Two CREATE TABLEs at once: the loser trips over the winner's row in a catalog (pg_class, pg_type, ...).
    (code === '23505' && /"pg_\w+_index"/.test(e.message)) ||
    (code === 'SQLITE_ERROR' && /^create table .* already exists$/.test(e.message))
  );
}

async function migrateOnce(target: DatabaseTarget, migrations: readonly Migration[]): Promise<string[]> {
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
