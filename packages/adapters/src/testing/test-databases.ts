import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll } from 'vitest';
import type { UnitOfWork } from '@fundi/domain';
import { migrate, openDatabase, type DatabaseTarget } from '../db/open-database.js';
import type { SqlDb } from '../db/sql-db.js';
import { learnerStorage } from '../learners/learner-storage.js';
import { platformStorage } from '../platform/platform-storage.js';
import {
  migrationsOf,
  storageFor,
  type CapabilityStorage,
  type RepositoriesOf,
} from '../storage/capability-storage.js';
import { tenantStorage } from '../tenants/tenant-storage.js';
import { trainingStorage } from '../training/training-storage.js';
import { webhookStorage } from '../webhooks/webhook-storage.js';

/**
 * The storage of the capabilities that existed before capability modules, which most adapter tests use. A newer
 * capability's tests pass their own parts (platform first) instead of adding to this list.
 */
export const CORE_STORAGE = [platformStorage, tenantStorage, learnerStorage, trainingStorage, webhookStorage] as const;
export type CoreRepositories = RepositoriesOf<typeof CORE_STORAGE>;

export type StorageKind = 'memory' | 'sqlite' | 'postgres';
export const STORAGE_KINDS: readonly StorageKind[] = ['memory', 'sqlite', 'postgres'];

/** Postgres for tests: DATABASE_URL_TEST, else the machine's server on 127.0.0.1. */
export const POSTGRES_TEST_URL = process.env.DATABASE_URL_TEST || 'postgres://postgres@127.0.0.1:5432/test';

let available: Promise<boolean> | null = null;

/** Whether the test Postgres answers. Under CI=true an unreachable Postgres is an error, never a skip. */
export function postgresAvailable(): Promise<boolean> {
  available ??= (async () => {
    const client = new pg.Client({
      connectionString: POSTGRES_TEST_URL,
      user: new URL(POSTGRES_TEST_URL).username || 'postgres',
      connectionTimeoutMillis: 3000,
    });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch (e) {
      if (process.env.CI === 'true')
        throw new Error(`CI=true but Postgres at ${POSTGRES_TEST_URL} is unreachable: ${(e as Error).message}`);
      process.stderr.write(
        `\n[notice] Postgres at ${POSTGRES_TEST_URL} is unreachable: Postgres suites are SKIPPED (${(e as Error).message})\n`,
      );
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return available;
}

export interface TestStorage<R = CoreRepositories> {
  kind: StorageKind;
  repos: R;
  uow: UnitOfWork<R>;
  /** The SQL handle (absent for memory). */
  db?: SqlDb;
  /** What `openDatabase`/`migrate` need to reach the same database (absent for memory). */
  target?: DatabaseTarget;
  close(): Promise<void>;
}

/**
 * A fresh, empty, private database: a new SQLite file in a temp dir, or a new Postgres schema (so test files can run
 * in parallel against one server). `drop` removes it.
 */
export async function freshDatabase(
  kind: Exclude<StorageKind, 'memory'>,
): Promise<{ target: DatabaseTarget; drop(): Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'fundi-test-'));
    return {
      target: { kind: 'sqlite', filename: join(dir, 'test.sqlite') },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({
      connectionString: POSTGRES_TEST_URL,
      user: new URL(POSTGRES_TEST_URL).username || 'postgres',
    });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE SCHEMA ${schema}`);
  return {
    target: { kind: 'postgres', url: POSTGRES_TEST_URL, searchPath: schema, poolMax: 5 },
    drop: () => admin(`DROP SCHEMA ${schema} CASCADE`),
  };
}

/** A fresh database (`freshDatabase`) migrated for `parts`, with their repositories over it. `close` removes it. */
export function openTestStorage(kind: StorageKind): Promise<TestStorage<CoreRepositories>>;
export function openTestStorage<const P extends readonly CapabilityStorage<object>[]>(
  kind: StorageKind,
  parts: P,
): Promise<TestStorage<RepositoriesOf<P>>>;
export async function openTestStorage(
  kind: StorageKind,
  parts: readonly CapabilityStorage<object>[] = CORE_STORAGE,
): Promise<TestStorage<object>> {
  if (kind === 'memory') return { kind, ...storageFor(parts, null), close: async () => {} };
  const { target, drop } = await freshDatabase(kind);
  await migrate(target, migrationsOf(parts));
  const db = openDatabase(target);
  return {
    kind,
    db,
    target,
    ...storageFor(parts, db),
    close: async () => {
      await db.close();
      await drop();
    },
  };
}

/**
 * Fresh databases of one kind for the tests of a describe block, each dropped after the block: the returned function
 * makes the next one.
 */
export function freshDatabasesOfSuite(kind: Exclude<StorageKind, 'memory'>): () => Promise<DatabaseTarget> {
  const dropped: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of dropped) await drop();
  });
  return async () => {
    const { target, drop } = await freshDatabase(kind);
    dropped.push(drop);
    return target;
  };
}
