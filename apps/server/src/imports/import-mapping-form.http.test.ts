import { expect, it } from 'vitest';
import { PASSWORD, WebClient, staffUser } from '../testing/dashboard-client.js';
import { idNumberFor, settled, upload } from '../testing/import-fixtures.js';
import { A, describeImportSuite } from './imports-http-fixture.js';

/**
 * The dashboard's column-mapping form (docs/dashboard.md, "Pages", Imports): a file whose headers the type does not know
 * gets a choice of column per header, the nearest preselected; submitted, the mapping is saved like the API's
 * `options.columns` and the same file is checked again with it.
 */
describeImportSuite('imports over HTTP: the dashboard maps unknown headers', (world) => {
  it('offers each unknown header with the nearest column preselected, saves the choice and checks the file again', async () => {
    const { s, admin } = world();
    await staffUser(s.container, 'imp', 'admin');
    const csv = [
      'first_nam,last_name,id_number,Emial,Notes',
      `Ayanda,Zulu,${idNumberFor(820)},a820@example.com,likes maths`,
      `Bongi,Khumalo,${idNumberFor(821)},b821@example.com,`,
    ].join('\n');
    const r = await upload(s, admin, A, 'learners', csv);
    const failed = await settled(s, admin, A, r.body.id, ['validated', 'failed']);
    expect(failed.status).toBe('failed');
    const web = new WebClient(s.url);
    await web.signIn('imp', 'admin@example.org', PASSWORD);
    const path = `/dashboard/imports/${r.body.id}`;
    const page = (await web.get(path)).text;
    expect(page).toContain('Columns this file names differently');
    const selected = [...page.matchAll(/name="header\.(\d+)" value="([^"]*)"[\s\S]*?<\/select>/g)].map((m) => [
      m[2],
      /<option value="([^"]*)" selected>/.exec(m[0])?.[1] ?? '',
    ]);
    expect(selected).toEqual([
      ['first_nam', 'first_name'],
      ['Emial', 'email'],
      ['Notes', ''],
    ]);
    // Submitted as offered (the nearest columns, Notes ignored).
    const fields: Record<string, string> = {};
    selected.forEach(([h, c], k) => {
      fields[`header.${k}`] = h!;
      fields[`column.${k}`] = c!;
    });
    const sent = await web.submit(path, `${path}/columns`, fields);
    expect(sent.status).toBe(303);
    const again = sent.headers.get('location')!.split('/').at(-1)!;
    expect(again).not.toBe(r.body.id);
    expect(await settled(s, admin, A, again, ['validated', 'failed'])).toMatchObject({
      status: 'validated',
      fileName: 'learners.csv',
      validRows: 2,
      errors: [expect.objectContaining({ row: 1, field: 'Notes' })],
    });
    // Saved for the tenant: the same headers are read alike next time, without a mapping.
    const next = await upload(
      s,
      admin,
      A,
      'learners',
      csv.replace(/820|821/g, (m) => String(Number(m) + 10)),
    );
    expect(await settled(s, admin, A, next.body.id, ['validated', 'failed'])).toMatchObject({ status: 'validated' });
    // Nothing chosen: nothing is saved or started, the page says so.
    const none = await web.submit(path, `${path}/columns`, { 'header.0': 'first_nam', 'column.0': '' });
    expect(none.text).toContain('Choose a column for at least one header');
  });
});
