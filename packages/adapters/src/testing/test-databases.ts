import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Repositories, UnitOfWork } from '@fundi/application';
import { migrate, openDatabase, type DatabaseTarget } from '../db/open-database.js';
import type { SqlDb } from '../db/sql-db.js';
import { SqlUnitOfWork, sqlRepositories } from '../repos/sql-repositories.js';
import { MemoryStore } from '../memory/memory-store.js';
import { InMemoryUnitOfWork, inMemoryRepositories } from '../memory/in-memory-repositories.js';

export type StorageKind = 'memory' | 'sqlite' | 'postgres';
export const STORAGE_KINDS: readonly StorageKind[] = ['memory', 'sqlite', 'postgres'];

/** Postgres for tests: DATABASE_URL_TEST, else the machine's server on 127.0.0.1. */
export const POSTGRES_TEST_URL = process.env.DATABASE_URL_TEST || 'postgres://postgres@127.0.0.1:5432/test';

let available: Promise<boolean> | null = null;

/** Whether the test Postgres answers. Under CI=true an unreachable Postgres is an error, never a skip. */
export function postgresAvailable(): Promise<boolean> {
  available ??= (async () => {
    const client = new pg.Client({ connectionString: POSTGRES_TEST_URL, user: new URL(POSTGRES_TEST_URL).username || 'postgres', connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch (e) {
      if (process.env.CI === 'true') throw new Error(`CI=true but Postgres at ${POSTGRES_TEST_URL} is unreachable: ${(e as Error).message}`);
      process.stderr.write(`\n[notice] Postgres at ${POSTGRES_TEST_URL} is unreachable: Postgres suites are SKIPPED (${(e as Error).message})\n`);
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return available;
}

export interface TestStorage {
  kind: StorageKind;
  repos: Repositories;
  uow: UnitOfWork;
  /** The SQL handle (absent for memory). */
  db?: SqlDb;
  /** What `openDatabase`/`migrate` need to reach the same database (absent for memory). */
  target?: DatabaseTarget;
  close(): Promise<void>;
}

/**
 * A fresh, migrated, private store: a new SQLite file in a temp dir, or a new Postgres schema (so test files can
 * run in parallel against one server). `close` removes it.
 */
export async function openTestStorage(kind: StorageKind): Promise<TestStorage> {
  if (kind === 'memory') {
    const store = new MemoryStore();
    return { kind, repos: inMemoryRepositories(store), uow: new InMemoryUnitOfWork(store), close: async () => {} };
  }
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'fundi-test-'));
    const target: DatabaseTarget = { kind: 'sqlite', filename: join(dir, 'test.sqlite') };
    await migrate(target);
    const db = openDatabase(target);
    return { kind, db, target, repos: sqlRepositories(db), uow: new SqlUnitOfWork(db), close: async () => { await db.close(); rmSync(dir, { recursive: true, force: true }); } };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_TEST_URL, user: new URL(POSTGRES_TEST_URL).username || 'postgres' });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const target: DatabaseTarget = { kind: 'postgres', url: POSTGRES_TEST_URL, searchPath: schema, poolMax: 5 };
  await migrate(target);
  const db = openDatabase(target);
  return {
    kind, db, target, repos: sqlRepositories(db), uow: new SqlUnitOfWork(db),
    close: async () => {
      await db.close();
      const c = new pg.Client({ connectionString: POSTGRES_TEST_URL, user: new URL(POSTGRES_TEST_URL).username || 'postgres' });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}
