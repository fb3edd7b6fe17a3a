import { describe, expect, it } from 'vitest';
import { openTestStorage, postgresAvailable } from '../testing/test-databases.js';
import { copyText } from './postgres-copy.js';

describe('copyText: rows in the text format of COPY ... FROM STDIN', () => {
  it('escapes only backslash, tab, line feed and carriage return, and writes null as \\N', () => {
    expect(
      copyText([
        ['a\tb', 'line\nbreak\r', 'back\\slash', null, undefined],
        [true, false, 12, '\\N', 'Zoë "Zee" O\'Neil 🎓'],
      ]).toString('utf8'),
    ).toBe('a\\tb\tline\\nbreak\\r\tback\\\\slash\t\\N\t\\N\nt\tf\t12\t\\\\N\tZoë "Zee" O\'Neil 🎓\n');
  });

  it('reads a row array the caller fills again for each row, and grows past its first buffer', () => {
    const long = 'ñ€'.repeat(40_000);
    function* rows(): Generator<readonly (string | null)[]> {
      const row: (string | null)[] = ['', ''];
      for (let i = 0; i < 3; i++) {
        row[0] = `r${i}`;
        row[1] = i === 1 ? long : null;
        yield row;
      }
    }
    expect(copyText(rows()).toString('utf8')).toBe(`r0\t\\N\nr1\t${long}\nr2\t\\N\n`);
  });
});

const pgUp = await postgresAvailable();

(pgUp ? describe : describe.skip)('SqlDb.copyRows [postgres]', () => {
  it('loads every value back exactly as given, and a refused load leaves nothing of its transaction while the next one works', async () => {
    const s = await openTestStorage('postgres');
    try {
      const db = s.db!;
      await db.run('CREATE TABLE t_copy (k text PRIMARY KEY, v text, b boolean)');
      const odd = ['\t', '\n', '\r\n', '\\', '\\.', '\\N', '', 'NULL', '"\'', 'Ṱ̈́ėşť 日本語 🎓', 'a\u0001b'];
      const rows = odd.map((v, i): [string, string | null, boolean | null] => [`k${i}`, v, i % 2 === 0]);
      await db.copyRows!('t_copy', ['k', 'v', 'b'], [...rows, ['knull', null, null]]);
      const back = await db.all<{ k: string; v: string | null; b: boolean | null }>('SELECT k, v, b FROM t_copy');
      expect(new Map(back.map((r) => [r.k, [r.v, r.b]]))).toEqual(
        new Map([...rows.map(([k, v, b]): [string, unknown[]] => [k, [v, b]]), ['knull', [null, null]]]),
      );
      await expect(
        db.transaction(async (tx) => {
          await tx.run("INSERT INTO t_copy (k, v) VALUES ('before', 'x')");
          await tx.copyRows!(
            't_copy',
            ['k', 'v', 'b'],
            [
              ['new', 'y', true],
              ['k0', 'dup', false],
            ],
          );
        }),
      ).rejects.toMatchObject({ code: '23505' });
      expect(await db.all("SELECT k FROM t_copy WHERE k IN ('before', 'new')")).toEqual([]);
      await db.transaction(async (tx) => tx.copyRows!('t_copy', ['k', 'v', 'b'], [['after', 'z', true]]));
      expect(await db.first("SELECT v FROM t_copy WHERE k = 'after'")).toEqual({ v: 'z' });
    } finally {
      await s.close();
    }
  });
});
