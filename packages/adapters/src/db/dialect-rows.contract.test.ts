import { beforeAll, expect, it } from 'vitest';
import { describeEachStorage } from '../testing/each-storage.js';
import type { SqlDb } from './sql-db.js';
import type { Binding } from './statements.js';

const COLUMNS = ['id', 'tenant', 'n', 'note', 'at'];
const TYPES = { n: 'integer' } as const;
type Row = { id: string; tenant: string | null; n: number | null; note: string | null; at: string | null };
const row = (r: readonly Binding[]): Row => ({
  id: r[0] as string,
  tenant: (r[1] ?? null) as string | null,
  n: r[2] === null || r[2] === undefined ? null : Number(r[2]),
  note: (r[3] ?? null) as string | null,
  at: (r[4] ?? null) as string | null,
});
const read = (rs: Record<string, unknown>[]): Row[] =>
  rs
    .map((r) => row([r.id as string, r.tenant as string, r.n as number, r.note as string, r.at as string]))
    .sort((a, b) => a.id.localeCompare(b.id));

/**
 * `Dialect.rows` gives back exactly the rows it was given, whichever columns are the same in every row (on Postgres
 * those are parameters of their own, not in the JSON), inserted or read in a `WITH`, and beside another row set.
 */
describeEachStorage(
  'Dialect.rows',
  (get, kind) => {
    let db: SqlDb;
    beforeAll(async () => {
      db = get().db!;
      await db.run('CREATE TABLE rows_test (id TEXT PRIMARY KEY, tenant TEXT, n INTEGER, note TEXT, at TEXT)');
    });
    const insertAndRead = async (rows: readonly (readonly Binding[])[]) => {
      await db.run('DELETE FROM rows_test', []);
      const set = db.dialect.rows(COLUMNS, rows, TYPES);
      await db.run(`INSERT INTO rows_test (${COLUMNS.join(', ')}) ${set.sql}`, set.bindings);
      return read(await db.all('SELECT * FROM rows_test', []));
    };

    it('inserts rows whose tenant, number, null and time are the same in every row, and some that vary', async () => {
      const rows = Array.from({ length: 50 }, (_, i) => [
        `r${String(i).padStart(2, '0')}`,
        'ten_1',
        7,
        null,
        '2026-11-28',
      ]);
      rows[3]![3] = 'it says "hi", \\ and ünïcode';
      expect(await insertAndRead(rows)).toEqual(rows.map(row));
      if (kind === 'postgres') {
        // Only the columns that vary go in the JSON: the id and the note.
        const json = JSON.parse(db.dialect.rows(COLUMNS, rows, TYPES).bindings.at(-1) as string) as object[];
        expect(Object.keys(json[0]!)).toEqual(['id', 'note']);
      }
    });

    it('keeps every row when every column is the same in each, and gives one row alone as it is', async () => {
      const same = [
        ['x', 'ten_1', 1, 'a', null],
        ['x', 'ten_1', 1, 'a', null],
      ];
      const set = db.dialect.rows(COLUMNS, same, TYPES);
      const got = await db.all<Record<string, unknown>>(
        `WITH v (${COLUMNS.join(', ')}) AS (${set.sql}) SELECT * FROM v`,
        [...set.bindings],
      );
      expect(read(got)).toEqual(same.map(row));
      expect(await insertAndRead([['only', null, 3, 'n', '2026-11-28']])).toEqual([
        row(['only', null, 3, 'n', '2026-11-28']),
      ]);
    });

    it('tells apart values that are equal only as text (a number and its digits), and null from a string', async () => {
      const rows = [
        ['a', '1', 1, null, 'x'],
        ['b', '1', 1, 'null', 'x'],
        ['c', '1', 2, null, 'x'],
      ];
      expect(await insertAndRead(rows)).toEqual(rows.map(row));
    });

    it('binds two row sets of one statement in the order of the text', async () => {
      const a = db.dialect.rows(
        ['k', 'v'],
        [
          ['a1', 'same'],
          ['a2', 'same'],
        ],
      );
      const b = db.dialect.rows(
        ['k', 'v'],
        [
          ['b1', 'one'],
          ['b2', 'two'],
        ],
      );
      const got = await db.all<{ k: string; v: string }>(
        `WITH a (k, v) AS (${a.sql}), b (k, v) AS (${b.sql}) SELECT k, v FROM a UNION ALL SELECT k, v FROM b ORDER BY k`,
        [...a.bindings, ...b.bindings],
      );
      expect(got.map((r) => [r.k, r.v])).toEqual([
        ['a1', 'same'],
        ['a2', 'same'],
        ['b1', 'one'],
        ['b2', 'two'],
      ]);
    });
  },
  ['sqlite', 'postgres'],
);
