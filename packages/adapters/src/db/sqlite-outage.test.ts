import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteDb } from './sqlite-db.js';

const unavailable = { kind: 'unavailable', code: 'storage_unavailable' };

/** SqliteDb when the database cannot be used: locked by another connection, or a transaction SQLite rolled back. */
describe('SqliteDb when the database cannot be used', () => {
  let dir: string;
  let file: string;
  let db: SqliteDb;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fundi-sqlite-outage-'));
    file = join(dir, 'x.sqlite');
    db = new SqliteDb(file, { busyTimeoutMs: 200 });
    await db.transaction((tx) => tx.run('CREATE TABLE t (id INTEGER PRIMARY KEY)'));
    await db.transaction((tx) => tx.run('INSERT INTO t (id) VALUES (1)'));
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ids = async () => (await db.all<{ id: number }>('SELECT id FROM t ORDER BY id')).map((r) => r.id);

  it('a write lock held elsewhere past the busy timeout fails writes with storage_unavailable; reads go on', async () => {
    const other = new Database(file);
    other.prepare('BEGIN IMMEDIATE').run();
    try {
      const e = await db
        .transaction((tx) => tx.run('INSERT INTO t (id) VALUES (2)'))
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect(e).toMatchObject(unavailable);
      expect((e as Error).cause).toMatchObject({ code: 'SQLITE_BUSY' });
      expect(await ids()).toEqual([1]);
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
    await db.transaction((tx) => tx.run('INSERT INTO t (id) VALUES (2)'));
    expect(await ids()).toEqual([1, 2]);
  });

  it('a transaction SQLite rolled back by itself (as after an I/O error) fails its whole batch, and nothing of it is kept', async () => {
    // What SQLite does after SQLITE_IOERR or SQLITE_FULL: the whole transaction is gone. The unit that met the error
    // swallows it and goes on, as careless work might; its next statement would otherwise run, and commit, alone.
    const batch = await Promise.allSettled([
      db.transaction((tx) => tx.run('INSERT INTO t (id) VALUES (10)')),
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO t (id) VALUES (11)');
        await tx.run('ROLLBACK');
        await tx.run('INSERT INTO t (id) VALUES (12)').catch(() => {});
      }),
      db.transaction((tx) => tx.run('INSERT INTO t (id) VALUES (13)')),
    ]);
    expect(batch.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const r of batch) expect((r as PromiseRejectedResult).reason).toMatchObject(unavailable);
    expect(await ids()).toEqual([1]);
    await db.transaction((tx) => tx.run('INSERT INTO t (id) VALUES (14)'));
    expect(await ids()).toEqual([1, 14]);
  });

  it('other errors stay as they are: a unique violation is no outage', async () => {
    await expect(db.transaction((tx) => tx.run('INSERT INTO t (id) VALUES (1)'))).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT_PRIMARYKEY',
    });
  });
});
