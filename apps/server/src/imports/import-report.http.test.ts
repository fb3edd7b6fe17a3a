import { expect, it } from 'vitest';
import { PASSWORD, WebClient, staffUser } from '../testing/dashboard-client.js';
import { idNumberFor, settled, upload } from '../testing/import-fixtures.js';
import { A, B, V1, describeImportSuite } from './imports-http-fixture.js';

const HEADER = 'first_name,last_name,id_number,email,province_code,gender';

/**
 * One full report (docs/api.md, "Imports"): every check on every row the first time, rows counted apart from
 * errors, each error with its value and learner, and no confirm of a file without a valid row.
 */
describeImportSuite('imports over HTTP: one full report', (world) => {
  it('a file with errors in three columns reports all of them, and the duplicate, the first time', async () => {
    const { s, admin } = world();
    const csv = [
      HEADER,
      `Thandi,Mokoena,${idNumberFor(300)},t300@example.com,7,`,
      // A duplicate ID number, a bad email and a bad province on the same row, reported in the header's order.
      `Sipho,Ndlovu,${idNumberFor(300)},not-an-email,Gautang,`,
      `Lerato,Dube,${idNumberFor(301)},t301@example.com,X,Q`,
      `Ayanda,Zulu,${idNumberFor(302)},t302@example.com,,`,
    ].join('\n');
    const r = await upload(s, admin, B, 'learners', csv);
    const v = await settled(s, admin, B, r.body.id, ['validated', 'failed']);
    expect(v).toMatchObject({ status: 'validated', totalRows: 4, validRows: 2, rowsWithErrors: 2, errorCount: 4 });
    const sipho = { name: 'Sipho Ndlovu', idNumber: idNumberFor(300) };
    expect(v.errors).toEqual([
      { row: 3, field: 'id_number', error: 'same ID number as row 2', value: idNumberFor(300), learner: sipho },
      { row: 3, field: 'email', error: expect.any(String), value: 'not-an-email', learner: sipho },
      { row: 3, field: 'province_code', error: expect.stringContaining('must be'), value: 'Gautang', learner: sipho },
      {
        row: 4,
        field: 'gender',
        error: expect.stringContaining('must be'),
        value: 'Q',
        learner: { name: 'Lerato Dube', idNumber: idNumberFor(301) },
      },
    ]);
    const csvErrors = await s.call('GET', `${A}/imports/${r.body.id}/errors.csv`, admin);
    const lines = (csvErrors.body as string).trim().split('\r\n');
    expect(lines[0]).toBe('row,field,error,value,learner,id_number');
    expect(lines[2]).toMatch(new RegExp(`^3,email,.*,not-an-email,Sipho Ndlovu,${idNumberFor(300)}$`));
  });

  it('confirm is refused (409) and not offered when no row is valid; the dashboard says why', async () => {
    const { s, admin } = world();
    await staffUser(s.container, 'imp', 'admin');
    const csv = [HEADER, `A,B,1234567890123,a@example.com,,`, `C,D,${idNumberFor(310)},bad,,`].join('\n');
    const r = await upload(s, admin, B, 'learners', csv);
    const v = await settled(s, admin, B, r.body.id, ['validated', 'failed']);
    expect(v).toMatchObject({ status: 'validated', totalRows: 2, validRows: 0, rowsWithErrors: 2, errorCount: 2 });
    for (const prefix of [A, B, V1]) {
      const c = await s.call('POST', `${prefix}/imports/${r.body.id}/confirm`, admin);
      expect(c.status).toBe(409);
      expect(c.body.error.code).toBe(prefix === A ? 'conflict' : 'CONFLICT');
    }
    expect((await s.call('GET', `${A}/imports/${r.body.id}`, admin)).body.status).toBe('validated');
    const web = new WebClient(s.url);
    await web.signIn('imp', 'admin@example.org', PASSWORD);
    const page = await web.get(`/dashboard/imports/${r.body.id}`);
    expect(page.text).toContain('No row of this file can be imported');
    expect(page.text).not.toContain('Confirm the import');
    // With `dryRun: false` such a file stops at validated too: nothing is queued to write.
    const auto = await upload(s, admin, B, 'learners', csv, { dryRun: false });
    expect(await settled(s, admin, B, auto.body.id, ['validated', 'failed', 'completed'])).toMatchObject({
      status: 'validated',
      validRows: 0,
    });
  });

  it('a header no row can be read by still counts the rows of the file', async () => {
    const { s, admin } = world();
    const csv = ['first_name,id_number', `A,${idNumberFor(320)}`, `B,${idNumberFor(321)}`, `C,${idNumberFor(322)}`];
    const r = await upload(s, admin, B, 'learners', csv.join('\n'));
    const f = await settled(s, admin, B, r.body.id, ['validated', 'failed']);
    expect(f).toMatchObject({ status: 'failed', totalRows: 3, validRows: 0, rowsWithErrors: 3 });
    expect(f.errors).toEqual([{ row: 1, field: 'last_name', error: 'required column is missing from the header row' }]);
  });
});
