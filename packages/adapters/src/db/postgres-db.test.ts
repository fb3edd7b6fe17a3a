import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStorage, POSTGRES_TEST_URL, postgresAvailable, type TestStorage } from '../testing/test-databases.js';

const pgUp = await postgresAvailable();

(pgUp ? describe : describe.skip)('PostgresDb named statements [postgres]', () => {
  let s: TestStorage;
  beforeAll(async () => {
    s = await openTestStorage('postgres');
  });
  afterAll(async () => s?.close());

  it('a statement prepared before a migration still works after the table changes', async () => {
    const db = s.db!;
    await db.run('CREATE TABLE t_named (id text PRIMARY KEY)');
    await db.run('INSERT INTO t_named (id) VALUES (?)', ['a']);
    // Prepare on every pooled connection that may serve the next call.
    for (let i = 0; i < 10; i++)
      expect(await db.first('SELECT * FROM t_named WHERE id = ?', ['a'])).toEqual({ id: 'a' });
    await db.run('ALTER TABLE t_named ADD COLUMN extra text');
    for (let i = 0; i < 10; i++)
      expect(await db.first('SELECT * FROM t_named WHERE id = ?', ['a'])).toEqual({ id: 'a', extra: null });
  });

  it('the migrate runner leaves every table of the fresh schema analysed, so plans do not start from guesses', async () => {
    const rows = await s.db!.all<{ relname: string; analysed: boolean }>(
      `SELECT relname, (last_analyze IS NOT NULL) AS analysed FROM pg_stat_user_tables
       WHERE schemaname = current_schema() AND relname IN ('webhook_deliveries', 'learners')`,
    );
    expect(rows.map((r) => r.relname).sort()).toEqual(['learners', 'webhook_deliveries']);
    expect(rows.every((r) => r.analysed)).toBe(true);
  });

  it('amongTexts searches the index with the leading equality and all the values at once, on a table never analysed', async () => {
    const db = s.db!;
    await db.run('CREATE TABLE t_among (id text PRIMARY KEY, tenant_id text NOT NULL, v text, pad text)');
    await db.run('ALTER TABLE t_among SET (autovacuum_enabled = false)');
    await db.run('CREATE UNIQUE INDEX t_among_tenant_v ON t_among (tenant_id, v)');
    await db.run(
      "INSERT INTO t_among SELECT 'a' || g, 't1', 'v' || g, repeat('x', 300) FROM generate_series(1, 20000) g",
    );
    const values = Array.from({ length: 1000 }, (_, i) => `v${i * 7 + 1}`);
    const among = db.dialect.amongTexts('v', values);
    const sql = `SELECT id FROM t_among WHERE tenant_id = ? AND ${among.sql}`;
    const plan = await db.all<Record<string, string>>(`EXPLAIN ${sql}`, ['t1', ...among.bindings]);
    expect(plan.map((r) => Object.values(r)[0]).join('\n')).toMatch(/Index Cond: \(\(tenant_id = .*\) AND \(v = ANY/);
    expect(await db.all(sql, ['t1', ...among.bindings])).toHaveLength(1000);
  });

  it('rows of wide results keep their column names and values', async () => {
    const row = await s.db!.first<Record<string, unknown>>("SELECT 1 AS one, 'x' AS two, true AS three, NULL AS four");
    expect(row).toEqual({ one: 1, two: 'x', three: true, four: null });
  });

  it('scrub waits out a page another session has pinned: no dead version is left behind on it', async () => {
    const db = s.db!;
    const schema = (s.target as { searchPath: string }).searchPath;
    await db.run('CREATE TABLE t_scrub (id int PRIMARY KEY, secret text)');
    await db.run("INSERT INTO t_scrub SELECT g, 'secret-' || g FROM generate_series(1, 100) g");
    await db.run('DELETE FROM t_scrub WHERE id < 50');
    // A cursor that has fetched one row keeps its page pinned, so VACUUM cannot clean that page up yet.
    const reader = new pg.Client({ connectionString: POSTGRES_TEST_URL, options: `-c search_path=${schema}` });
    await reader.connect();
    try {
      await reader.query('BEGIN');
      await reader.query('DECLARE c CURSOR FOR SELECT * FROM t_scrub');
      await reader.query('FETCH 1 FROM c');
      let done = false;
      const scrubbing = db.scrub(['t_scrub']).then(() => {
        done = true;
      });
      await new Promise((ok) => setTimeout(ok, 400));
      expect(done, 'scrub still waiting while the page is pinned').toBe(false);
      await reader.query('COMMIT');
      await scrubbing;
    } finally {
      await reader.end();
    }
    // Nothing is left for a later VACUUM to remove: asked of VACUUM itself, on the page no longer pinned. (The
    // statistics' dead-tuple count is no witness: a backend reports its DELETE's counts up to a second late, which
    // may land after the scrub's VACUUM has reset them.)
    const check = new pg.Client({ connectionString: POSTGRES_TEST_URL, options: `-c search_path=${schema}` });
    await check.connect();
    try {
      const removed: number[] = [];
      check.on('notice', (n: { message?: string }) => {
        const m = /tuples: (\d+) removed/.exec(n.message ?? '');
        if (m) removed.push(Number(m[1]));
      });
      await check.query('VACUUM (VERBOSE) t_scrub');
      // One line for the table and one for its TOAST table: neither removed anything.
      expect(removed.length).toBeGreaterThan(0);
      expect(removed.filter((n) => n > 0)).toEqual([]);
    } finally {
      await check.end();
    }
  }, 90_000);
});
