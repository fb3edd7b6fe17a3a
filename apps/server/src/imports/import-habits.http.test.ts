import { expect, it } from 'vitest';
import { idNumberFor, settled, upload } from '../testing/import-fixtures.js';
import { A, B, V1, describeImportSuite } from './imports-http-fixture.js';

/**
 * Files as South African administrators write them (docs/api.md, "Imports"): headers such as `Surname` and
 * `ID Number`, dates as yyyy/mm/dd or dd/mm/yyyy, provinces and languages by name, Male/Female, yes/no words, an ID
 * number Excel turned into scientific notation, and a column mapping saved for the next file.
 */
describeImportSuite('imports over HTTP: files as people write them', (world) => {
  it('reads headers, dates, codes and words as people write them, and says what Excel did to an ID number', async () => {
    const { s, admin } = world();
    const csv = [
      'Name,Surname,ID Number,Cell,Province,Date of Birth,Gender,Home Language,POPI consent,Emial',
      `Thandi,Mokoena,${idNumberFor(400)},0821234567,Gauteng,1970/01/01,Female,isiZulu,Yes,`,
      `Sipho,Ndlovu,${idNumberFor(5401)},0821234568,KZN,01/01/1970,Male,Zul,ja,`,
      'Lerato,Dube,9.20122E+12,0821234569,GP,,,,,',
      `Ayanda,Zulu,${idNumberFor(402)},0821234570,Gautang,01/13/1970,,,,`,
    ].join('\r\n');
    const r = await upload(s, admin, B, 'learners', csv);
    const v = await settled(s, admin, B, r.body.id, ['validated', 'failed']);
    expect(v).toMatchObject({ status: 'validated', totalRows: 4, validRows: 2, rowsWithErrors: 2, errorCount: 4 });
    expect(v.errors).toEqual([
      { row: 1, field: 'Emial', error: expect.stringContaining('did you mean email?') },
      {
        row: 4,
        field: 'id_number',
        error: expect.stringContaining('Excel'),
        value: '9.20122E+12',
        learner: { name: 'Lerato Dube', idNumber: null },
      },
      expect.objectContaining({ row: 5, field: 'province_code', value: 'Gautang' }),
      expect.objectContaining({
        row: 5,
        field: 'date_of_birth',
        error: expect.stringContaining('mm/dd/yyyy is not taken'),
      }),
    ]);
    expect(v.errors[1].error).toContain('format the column as Text');
    expect((await s.call('POST', `${A}/imports/${r.body.id}/confirm`, admin)).status).toBe(202);
    await settled(s, admin, A, r.body.id, ['completed']);
    const thandi = await s.call('GET', `${A}/learners?search=Mokoena`, admin);
    expect(thandi.body.data[0]).toMatchObject({
      firstName: 'Thandi',
      lastName: 'Mokoena',
      provinceCode: '7',
      homeLanguageCode: 'Zul',
      popiActAgree: true,
      gender: 'F',
    });
    const sipho = await s.call('GET', `${A}/learners?search=Ndlovu`, admin);
    expect(sipho.body.data[0]).toMatchObject({ provinceCode: '5', gender: 'M', popiActAgree: true });
  });

  it('a column mapping given with the upload is used and saved for the next file; a bad one is refused', async () => {
    const { s, admin } = world();
    const header = "First,Learner's Family Name,ID";
    const first = [header, `Nomsa,Khumalo,${idNumberFor(410)}`].join('\n');
    const mapping = { columns: { First: 'first_name', "Learner's family name": 'Last Name' } };
    const r = await upload(s, admin, B, 'learners', first, mapping);
    expect(r.status).toBe(202);
    expect(await settled(s, admin, B, r.body.id, ['validated', 'failed'])).toMatchObject({
      status: 'validated',
      validRows: 1,
      errorCount: 0,
    });
    // The next file of the tenant, with the same headers and no mapping: read with the saved one.
    const next = await upload(s, admin, B, 'learners', [header, `Zodwa,Khumalo,${idNumberFor(411)}`].join('\n'));
    expect(await settled(s, admin, B, next.body.id, ['validated', 'failed'])).toMatchObject({
      status: 'validated',
      validRows: 1,
      errorCount: 0,
    });
    // null forgets a saved name: the header is then unknown, and the file has no first_name column.
    const forgot = await upload(s, admin, B, 'learners', first, { columns: { first: null } });
    const f = await settled(s, admin, B, forgot.body.id, ['validated', 'failed']);
    expect(f.status).toBe('failed');
    expect(f.errors).toContainEqual({
      row: 1,
      field: 'first_name',
      error: 'required column is missing from the header row',
    });
    for (const prefix of [A, V1]) {
      const bad = await upload(s, admin, prefix, 'learners', first, { columns: { First: 'shoe_size' } });
      expect(bad.status).toBe(prefix === A ? 422 : 400);
      expect(JSON.stringify(bad.body)).toContain('options.columns.First');
    }
  });
});
