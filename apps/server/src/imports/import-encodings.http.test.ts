import { expect, it } from 'vitest';
import { idNumberFor, settled, upload } from '../testing/import-fixtures.js';
import { A, B, describeImportSuite } from './imports-http-fixture.js';
import type { TestServer } from '../testing/test-server.js';

/** Windows-1252 bytes of the characters these files use beyond Latin-1 (curly quotes). */
const WIN1252: Record<string, number> = { '\u2019': 0x92 };
const win1252 = (text: string) => Buffer.from([...text].map((c) => WIN1252[c] ?? c.charCodeAt(0)));

/** Rows with accented names, one invalid (a bad email), as the UTF-8 comma file; `sep` separates the cells. */
function rows(n: number, sep: string): string {
  return [
    ['first_name', 'last_name', 'id_number', 'email'],
    ['Zo\u00eb', 'M\u00fcller', idNumberFor(n), `zoe${n}@example.com`],
    ['Ren\u00e9', 'O\u2019Brien', idNumberFor(n + 1), `rene${n}@example.com`],
    ['Andr\u00e9', 'Ngc\u00f6bo', idNumberFor(n + 2), 'not-an-email'],
  ]
    .map((r) => r.join(sep))
    .join('\r\n');
}

async function dryRun(s: TestServer, admin: string, data: Buffer) {
  const r = await upload(s, admin, B, 'learners', data);
  expect(r.status).toBe(202);
  return settled(s, admin, B, r.body.id, ['validated', 'failed']);
}

/**
 * Files as Excel saves them on Windows (docs/api.md, "Imports"): Windows-1252 with `;`, UTF-16 with its BOM and
 * tabs; each reads as the same valid rows as its UTF-8 comma twin, and the dry run says how it was read.
 */
describeImportSuite('imports over HTTP: encodings and delimiters', (world) => {
  it('a Windows-1252 file with ; and a UTF-16 file with tabs give the same rows as the UTF-8 comma file', async () => {
    const { s, admin } = world();
    const cases: [string, Buffer, string, string][] = [
      ['utf-8', Buffer.from(rows(600, ',')), 'utf-8', ','],
      ['windows-1252', win1252(rows(610, ';')), 'windows-1252', ';'],
      ['utf-16le', Buffer.from(`\ufeff${rows(620, '\t')}`, 'utf16le'), 'utf-16le', '\t'],
      ['utf-8 with BOM', Buffer.from(`\ufeff${rows(630, ';')}`), 'utf-8-bom', ';'],
    ];
    const written: string[][] = [];
    for (const [what, data, encoding, delimiter] of cases) {
      const v = await dryRun(s, admin, data);
      expect(v, what).toMatchObject({
        status: 'validated',
        format: { encoding, delimiter },
        totalRows: 3,
        validRows: 2,
        rowsWithErrors: 1,
      });
      expect(v.errors, what).toEqual([
        expect.objectContaining({ row: 4, field: 'email', value: 'not-an-email', learner: expect.anything() }),
      ]);
      expect(v.errors[0].learner.name, what).toBe('Andr\u00e9 Ngc\u00f6bo');
      expect((await s.call('POST', `${A}/imports/${v.id}/confirm`, admin)).status).toBe(202);
      await settled(s, admin, A, v.id, ['completed']);
      const n = 600 + 10 * cases.findIndex((c) => c[0] === what);
      const names: string[] = [];
      for (const k of [0, 1]) {
        const l = await s.call('GET', `${A}/learners?search=${idNumberFor(n + k)}`, admin);
        names.push(`${l.body.data[0].firstName} ${l.body.data[0].lastName}`);
      }
      written.push(names);
    }
    for (const names of written) expect(names).toEqual(['Zo\u00eb M\u00fcller', 'Ren\u00e9 O\u2019Brien']);
  });
});
