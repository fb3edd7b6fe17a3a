import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteDb } from './sqlite-db.js';

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

describe('SQLite WAL checkpoints on a background thread', () => {
  let dir: string;
  let file: string;
  let db: SqliteDb;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fundi-ckpt-'));
    file = join(dir, 'x.sqlite');
    db = new SqliteDb(file);
    await db.transaction((tx) => tx.run('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)'));
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `mb` megabytes in transactions of 1,000 rows of 1 KB each. */
  async function write(mb: number, from = 0): Promise<void> {
    const v = 'x'.repeat(1000);
    for (let b = 0; b < mb; b++)
      await db.transaction(async (tx) => {
        for (let i = 0; i < 1000; i += 100) {
          const ids = Array.from({ length: 100 }, (_, j) => from + b * 1000 + i + j);
          await tx.run(
            `INSERT INTO t (id, v) VALUES ${ids.map(() => '(?, ?)').join(', ')}`,
            ids.flatMap((id) => [id, v]),
          );
        }
      });
  }

  it("copies a growing WAL into the database file off the writer's thread, and the writer's data stays whole", async () => {
    const small = statSync(file).size;
    await write(24);
    for (let i = 0; i < 250 && db.backgroundCheckpoints === 0; i++) await sleep(20);
    expect(db.backgroundCheckpoints).toBeGreaterThan(0);
    // Pages reached the database file although the writer itself only checkpoints past 16,000 pages (64 MB).
    expect(statSync(file).size).toBeGreaterThan(small + 4 * 1024 * 1024);
    await write(4, 24_000);
    expect((await db.first<{ n: number }>('SELECT COUNT(*) AS n FROM t'))?.n).toBe(28_000);
    // A WAL started over is cut back to 4 MB: it does not keep the size of the largest burst.
    for (let i = 0; i < 100 && statSync(`${file}-wal`).size > 8 * 1024 * 1024; i++) {
      await db.transaction((tx) => tx.run('INSERT INTO t (id, v) VALUES (?, ?)', [1_000_000 + i, 'y']));
      await sleep(20);
    }
    expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(8 * 1024 * 1024);
  });

  it('the thread does not keep the process alive (a script that never closes the database still exits)', async () => {
    const ports = () => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length;
    const before = ports();
    await write(8);
    for (let i = 0; i < 250 && db.backgroundCheckpoints === 0; i++) await sleep(20);
    expect(db.backgroundCheckpoints).toBeGreaterThan(0);
    expect(ports()).toBe(before);
  });

  it('runs in a process started with --input-type=module, which its thread inherits (the built code)', () => {
    const built = fileURLToPath(new URL('../../dist/db/sqlite-db.js', import.meta.url));
    const script = `
      import { SqliteDb } from ${JSON.stringify(built)};
      const db = new SqliteDb(${JSON.stringify(join(dir, 'esm.sqlite'))});
      await db.transaction((tx) => tx.run('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)'));
      const v = 'x'.repeat(1000);
      for (let b = 0; b < 8; b++)
        await db.transaction(async (tx) => {
          for (let i = 0; i < 1000; i++) await tx.run('INSERT INTO t (id, v) VALUES (?, ?)', [b * 1000 + i, v]);
        });
      for (let i = 0; i < 250 && db.backgroundCheckpoints === 0; i++) await new Promise((ok) => setTimeout(ok, 20));
      console.log(JSON.stringify({ checkpoints: db.backgroundCheckpoints }));
      await db.close();`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').pop()!).checkpoints).toBeGreaterThan(0);
  });

  it('does not checkpoint again for small commits once the WAL has started over', async () => {
    await write(8);
    for (let i = 0; i < 250 && db.backgroundCheckpoints === 0; i++) await sleep(20);
    // Small commits, each long enough after the last look to be looked at: the WAL starts over at the first one.
    for (let i = 0; i < 3; i++) {
      await db.transaction((tx) => tx.run('INSERT INTO t (id, v) VALUES (?, ?)', [2_000_000 + i, 'y']));
      await sleep(30);
    }
    const after = db.backgroundCheckpoints;
    for (let i = 0; i < 10; i++) {
      await db.transaction((tx) => tx.run('INSERT INTO t (id, v) VALUES (?, ?)', [3_000_000 + i, 'y']));
      await sleep(30);
    }
    expect(statSync(`${file}-wal`).size).toBeLessThan(4 * 1024 * 1024);
    expect(db.backgroundCheckpoints).toBe(after);
  });

  it('stops the thread on close, so the last connection removes the WAL and another process reads everything', async () => {
    await write(8);
    for (let i = 0; i < 250 && db.backgroundCheckpoints === 0; i++) await sleep(20);
    expect(db.backgroundCheckpoints).toBeGreaterThan(0);
    await db.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    const other = new Database(file, { readonly: true });
    try {
      expect((other.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n).toBe(8_000);
      expect((other.pragma('integrity_check') as { integrity_check: string }[])[0]!.integrity_check).toBe('ok');
    } finally {
      other.close();
    }
    db = new SqliteDb(file);
  });

  it('leaves a small database without a thread', async () => {
    await write(1);
    await sleep(50);
    expect(db.backgroundCheckpoints).toBe(0);
  });
});
