import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { PASSWORD, WebClient, staffUser } from '../testing/dashboard-client.js';
import { idNumberFor, settled, upload } from '../testing/import-fixtures.js';
import type { TestServer } from '../testing/test-server.js';
import { A, B, filesUnder, describeImportSuite } from './imports-http-fixture.js';

const HEADER = ['first_name', 'last_name', 'id_number', 'date_of_birth', 'province_code', 'email'];

/** Three learners as people type them (the date of birth the ID number's), the third with a bad email. */
function learners(n: number): (string | number | Date)[][] {
  const dob = (k: number) => {
    const id = idNumberFor(n + k);
    return new Date(Date.UTC(1900 + Number(id.slice(0, 2)), Number(id.slice(2, 4)) - 1, Number(id.slice(4, 6))));
  };
  return [
    ['Zo\u00eb', 'M\u00fcller', Number(idNumberFor(n)), dob(0), 'Gauteng', `zoe${n}@example.com`],
    ['Thandi', 'Mokoena', Number(idNumberFor(n + 1)), dob(1), 'KZN', `thandi${n}@example.com`],
    ['Andr\u00e9', 'Ngc\u00f6bo', Number(idNumberFor(n + 2)), dob(2), 'Western Cape', 'not-an-email'],
  ];
}

/** An .xlsx made with exceljs: a notes sheet first when `notes`, then the learners (dates as date cells). */
async function workbook(n: number, o: { notes?: boolean } = {}): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  if (o.notes) wb.addWorksheet('Notes').addRow(['Exported from the HR system']);
  const ws = wb.addWorksheet('Learners');
  ws.addRow(HEADER);
  for (const r of learners(n)) ws.addRow(r);
  ws.getColumn(4).numFmt = 'dd/mm/yyyy';
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The same rows as a UTF-8 CSV (dates as Excel shows them, dd/mm/yyyy). */
function csvTwin(n: number): string {
  const day = (d: Date) =>
    `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
  return [HEADER, ...learners(n).map((r) => r.map((c) => (c instanceof Date ? day(c) : String(c))))]
    .map((r) => r.join(','))
    .join('\r\n');
}

/** Bytes of a file answer (the test server's `call` reads answers as text, and checks them against the document). */
async function bytes(s: TestServer, path: string, key: string): Promise<Buffer<ArrayBuffer>> {
  const checked = await s.call('GET', path, key);
  expect(checked.status).toBe(200);
  const r = await fetch(s.url + path, { headers: { authorization: `Bearer ${key}` } });
  return Buffer.from(await r.arrayBuffer());
}

/**
 * Excel workbooks uploaded as they are (docs/api.md, "Imports"): told by content, read with their dates and numeric
 * ID numbers exact, the same valid rows as the CSV twin; broken ones refused at upload; templates as .xlsx.
 */
describeImportSuite('imports over HTTP: Excel workbooks', (world) => {
  it('an .xlsx with a date column, numeric ID numbers and province names imports the rows of its CSV twin', async () => {
    const { s, admin } = world();
    const x = await upload(s, admin, A, 'learners', await workbook(700), undefined, 'learners.csv');
    expect(x.status).toBe(202);
    const c = await upload(s, admin, A, 'learners', csvTwin(710));
    const [vx, vc] = [
      await settled(s, admin, A, x.body.id, ['validated', 'failed']),
      await settled(s, admin, A, c.body.id, ['validated', 'failed']),
    ];
    expect(vx).toMatchObject({
      status: 'validated',
      format: { file: 'xlsx', sheet: 'Learners' },
      totalRows: 3,
      validRows: 2,
      rowsWithErrors: 1,
    });
    expect(vc).toMatchObject({ status: 'validated', totalRows: 3, validRows: 2, rowsWithErrors: 1 });
    for (const v of [vx, vc])
      expect(v.errors).toEqual([expect.objectContaining({ row: 4, field: 'email', value: 'not-an-email' })]);
    expect((await s.call('POST', `${A}/imports/${vx.id}/confirm`, admin)).status).toBe(202);
    await settled(s, admin, A, vx.id, ['completed']);
    const l = (await s.call('GET', `${A}/learners?search=${idNumberFor(700)}`, admin)).body.data[0];
    expect(l).toMatchObject({ idNumber: idNumberFor(700), firstName: 'Zo\u00eb', lastName: 'M\u00fcller' });
    const full = (await s.call('GET', `${A}/learners/${l.id}`, admin)).body;
    expect(full.provinceCode).toBe('7');
    const id = idNumberFor(700);
    expect(full.dateOfBirth).toBe(`19${id.slice(0, 2)}-${id.slice(2, 4)}-${id.slice(4, 6)}`);
  });

  it('options.sheet picks the sheet; the first visible sheet otherwise', async () => {
    const { s, admin } = world();
    const data = await workbook(720, { notes: true });
    const named = await upload(s, admin, A, 'learners', data, { sheet: 'learners' });
    expect(named.status).toBe(202);
    expect(await settled(s, admin, A, named.body.id, ['validated', 'failed'])).toMatchObject({
      status: 'validated',
      format: { file: 'xlsx', sheet: 'Learners' },
      validRows: 2,
    });
    const first = await upload(s, admin, A, 'learners', data);
    const f = await settled(s, admin, A, first.body.id, ['validated', 'failed']);
    expect(f).toMatchObject({ status: 'failed', format: { file: 'xlsx', sheet: 'Notes' } });
  });

  it('a workbook read again with a mapping reads its staged rows: the same sheet, format and row numbers', async () => {
    const { s, admin } = world();
    await staffUser(s.container, 'imp', 'admin');
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Notes').addRow(['Exported from the HR system']);
    const ws = wb.addWorksheet('Learners');
    ws.addRow(['first_nam', 'last_name', 'id_number']);
    ws.getCell('A3').value = 'Ayanda';
    ws.getCell('B3').value = 'Zulu';
    ws.getCell('C3').value = Number(idNumberFor(830));
    const r = await upload(s, admin, A, 'learners', Buffer.from(await wb.xlsx.writeBuffer()), { sheet: 'learners' });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ format: { file: 'xlsx', sheet: 'Learners' }, totalRows: 2 });
    expect(await settled(s, admin, A, r.body.id, ['validated', 'failed'])).toMatchObject({ status: 'failed' });
    const web = new WebClient(s.url);
    await web.signIn('imp', 'admin@example.org', PASSWORD);
    const path = `/dashboard/imports/${r.body.id}`;
    const sent = await web.submit(path, `${path}/columns`, { 'header.0': 'first_nam', 'column.0': 'first_name' });
    expect(sent.status).toBe(303);
    const again = await settled(s, admin, A, sent.headers.get('location')!.split('/').at(-1)!, ['validated', 'failed']);
    expect(again).toMatchObject({
      status: 'validated',
      format: { file: 'xlsx', sheet: 'Learners' },
      totalRows: 2,
      validRows: 1,
      rowsWithErrors: 1,
    });
    // Row 2 is the sheet's empty row, reported as a CSV's blank row is.
    expect(again.errors).toEqual([expect.objectContaining({ row: 2 })]);
  });

  it('a broken, encrypted or sheetless workbook, and a sheet named for a CSV, are refused at upload; nothing is kept', async () => {
    const { s, admin } = world();
    const good = await workbook(730);
    const ole = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    const encrypted = Buffer.from(ole);
    Buffer.from('EncryptedPackage', 'utf16le').copy(encrypted, 1200);
    const before = (await s.call('GET', `${A}/imports?limit=100`, admin)).body.pagination.total;
    const filesBefore = s.filesDir ? filesUnder(s.filesDir).length : 0;
    const cases: [string, Buffer | string, Record<string, unknown> | undefined, string, RegExp][] = [
      ['cut short', good.subarray(0, 200), undefined, 'file', /cannot be read as an Excel workbook/],
      ['encrypted', encrypted, undefined, 'file', /password-protected \(encrypted\)/],
      ['.xls', ole, undefined, 'file', /old Excel workbook \(\.xls\)/],
      ['no such sheet', good, { sheet: 'Sheet9' }, 'options.sheet', /no sheet named "Sheet9" \(its sheets: Learners\)/],
      ['sheet of a CSV', csvTwin(740), { sheet: 'Learners' }, 'options.sheet', /for Excel workbooks/],
    ];
    for (const [what, data, options, field, message] of cases) {
      const a = await upload(s, admin, A, 'learners', data, options);
      expect(a.status, what).toBe(422);
      expect(a.body.error.details, what).toContainEqual({ field, message: expect.stringMatching(message) });
      const b = await upload(s, admin, B, 'learners', data, options);
      expect(b.status, what).toBe(400);
      expect(b.body.error.details.field, what).toBe(field);
    }
    expect((await s.call('GET', `${A}/imports?limit=100`, admin)).body.pagination.total).toBe(before);
    if (s.filesDir) expect(filesUnder(s.filesDir).length).toBe(filesBefore);
  });

  it('the .xlsx template: columns as text (dates as dates), a Codes sheet, and it imports back as filled in', async () => {
    const { s, admin } = world();
    const t = await bytes(s, `${A}/imports/templates/learners?format=xlsx`, admin);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(t.buffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['learners', 'Codes']);
    const ws = wb.getWorksheet('learners')!;
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    const col = (name: string) => header.indexOf(name) + 1;
    expect(ws.getColumn(col('id_number')).numFmt).toBe('@');
    expect(ws.getColumn(col('mobile')).numFmt).toBe('@');
    expect(ws.getColumn(col('date_of_birth')).numFmt).toBe('yyyy-mm-dd');
    expect(ws.getRow(2).getCell(col('date_of_birth')).value).toEqual(new Date('1992-02-20T00:00:00Z'));
    const codes = wb
      .getWorksheet('Codes')!
      .getSheetValues()
      .map((r) => (Array.isArray(r) ? r.slice(1) : []));
    expect(codes).toContainEqual(['province_code', '7', 'Gauteng']);
    expect(codes).toContainEqual(['home_language_code', 'Zul', 'isiZulu']);
    expect(codes).toContainEqual(['gender', 'F', 'Female']);
    // Filled in as a clerk would: the example row's ID number replaced by a new one, typed into the text column.
    ws.getRow(2).getCell(col('id_number')).value = idNumberFor(750);
    ws.getRow(2).getCell(col('date_of_birth')).value = null;
    ws.getRow(2).getCell(col('email')).value = 'template750@example.com';
    const back = await upload(s, admin, A, 'learners', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(back.status).toBe(202);
    const v = await settled(s, admin, A, back.body.id, ['validated', 'failed']);
    expect(v).toMatchObject({ status: 'validated', totalRows: 1, validRows: 1, errorCount: 0 });
    const csv = await s.call('GET', `${B}/imports/templates/learners`, admin);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
  });
});
