import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteDb } from './sqlite-db.js';

const nextTurn = () => new Promise((ok) => setImmediate(ok));

describe('SqliteDb group commit', () => {
  let dir: string;
  let db: SqliteDb;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fundi-gc-'));
    db = new SqliteDb(join(dir, 'x.sqlite'));
    await db.transaction((tx) => tx.run('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)'));
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits concurrent transactions together and rolls back only the one that failed', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        db.transaction(async (tx) => {
          await tx.run('INSERT INTO t (id, v) VALUES (?, ?)', [i, `v${i}`]);
          await tx.run('INSERT INTO t (id, v) VALUES (?, ?)', [100 + i, `w${i}`]);
          if (i === 7) throw new Error('boom');
          return i;
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect((results[7] as PromiseRejectedResult).reason.message).toBe('boom');
    const rows = await db.all<{ id: number }>('SELECT id FROM t ORDER BY id');
    expect(rows.map((r) => r.id)).toHaveLength(38);
    expect(rows.some((r) => r.id === 7 || r.id === 107)).toBe(false);
  });

  it('a statement error inside one transaction leaves the others of its batch intact', async () => {
    await db.transaction((tx) => tx.run('INSERT INTO t (id, v) VALUES (1, ?)', ['dup']));
    const [a, b, c] = await Promise.allSettled([
      db.transaction((tx) => tx.run('INSERT INTO t (id, v) VALUES (2, ?)', ['a'])),
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO t (id, v) VALUES (3, ?)', ['b']);
        await tx.run('INSERT INTO t (id, v) VALUES (4, ?)', ['dup']);
      }),
      db.transaction((tx) => tx.run('INSERT INTO t (id, v) VALUES (5, ?)', ['c'])),
    ]);
    expect([a.status, b.status, c.status]).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await db.all<{ id: number }>('SELECT id FROM t ORDER BY id')).map((r) => r.id)).toEqual([1, 2, 5]);
  });

  it('answers only after the commit: the reader connection already sees the row', async () => {
    await db.transaction((tx) => tx.run('INSERT INTO t (id, v) VALUES (9, ?)', ['x']));
    expect(await db.first('SELECT v FROM t WHERE id = 9')).toEqual({ v: 'x' });
  });

  it('reads outside a transaction never see uncommitted writes', async () => {
    let seenInside: unknown = 'unset';
    await db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (id, v) VALUES (10, ?)', ['y']);
      seenInside = await db.first('SELECT v FROM t WHERE id = 10');
    });
    expect(seenInside).toBeUndefined();
    expect(await db.first('SELECT v FROM t WHERE id = 10')).toEqual({ v: 'y' });
  });

  it('a read in the same turn as a commit of this process, after it, sees the write', async () => {
    const write = db.transaction((tx) => tx.run('INSERT INTO t (id, v) VALUES (11, ?)', ['z']));
    // This read's snapshot is taken after the commit was scheduled, so it would outlive the commit.
    expect(await db.first('SELECT v FROM t WHERE id = 11')).toBeUndefined();
    await write;
    expect(await db.first('SELECT v FROM t WHERE id = 11')).toEqual({ v: 'z' });
  });

  it('sees writes of another process from the next turn of the event loop', async () => {
    const other = new Database(join(dir, 'x.sqlite'));
    try {
      expect(await db.first('SELECT v FROM t WHERE id = 12')).toBeUndefined();
      other.prepare('INSERT INTO t (id, v) VALUES (12, ?)').run('elsewhere');
      await nextTurn();
      expect(await db.first('SELECT v FROM t WHERE id = 12')).toEqual({ v: 'elsewhere' });
    } finally {
      other.close();
    }
  });

  it('lets the database be checkpointed to nothing while reads come and go', async () => {
    await db.transaction((tx) => tx.run('INSERT INTO t (id, v) VALUES (13, ?)', ['w']));
    await db.first('SELECT v FROM t WHERE id = 13');
    await db.scrub();
    expect(await db.first('SELECT v FROM t WHERE id = 13')).toEqual({ v: 'w' });
  });
});
