import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStorage, postgresAvailable, type TestStorage } from '../testing/test-databases.js';

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

  it('rows of wide results keep their column names and values', async () => {
    const row = await s.db!.first<Record<string, unknown>>("SELECT 1 AS one, 'x' AS two, true AS three, NULL AS four");
    expect(row).toEqual({ one: 1, two: 'x', three: true, four: null });
  });
});
