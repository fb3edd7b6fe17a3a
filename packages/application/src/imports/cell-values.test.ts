import { describe, expect, it } from 'vitest';
import { codeCell, dateCell, digitsCell, genderCell, yesNoCell } from './cell-values.js';

const ok = (v: string) => ({ ok: v });

describe('cells as people write them', () => {
  it('reads yyyy-mm-dd, yyyy/mm/dd and dd/mm/yyyy, never mm/dd; an ambiguous or impossible date is an error', () => {
    expect(dateCell('2026-03-04')).toEqual(ok('2026-03-04'));
    expect(dateCell('2026/03/04')).toEqual(ok('2026-03-04'));
    expect(dateCell('2026/3/4')).toEqual(ok('2026-03-04'));
    expect(dateCell('04/03/2026')).toEqual(ok('2026-03-04'));
    expect(dateCell('4-3-2026')).toEqual(ok('2026-03-04'));
    expect(dateCell('2026/03/04 00:00:00')).toEqual(ok('2026-03-04'));
    expect(dateCell('03/25/2026')).toEqual({ error: expect.stringContaining('mm/dd/yyyy is not taken') });
    expect(dateCell('04/03/26')).toEqual({ error: expect.stringContaining('yyyy-mm-dd, yyyy/mm/dd or dd/mm/yyyy') });
    expect(dateCell('March 4, 2026')).toEqual({ error: expect.stringContaining('never mm/dd') });
    expect(dateCell('31/02/2026')).toEqual({ error: 'is not a real date' });
  });

  it('takes every code or its meaning, any case; provinces by name and abbreviation', () => {
    const province = codeCell('provinceCode');
    for (const v of ['Gauteng', 'GP', 'gauteng', '7']) expect(province(v)).toEqual(ok('7'));
    for (const v of ['KZN', 'KwaZulu-Natal', 'Kwazulu Natal']) expect(province(v)).toEqual(ok('5'));
    expect(province('WC')).toEqual(ok('1'));
    expect(province('n')).toEqual(ok('N'));
    expect(province('Gautang')).toEqual({ error: expect.stringContaining('7 (Gauteng)') });
    expect(codeCell('homeLanguageCode')('isiZulu')).toEqual(ok('Zul'));
    expect(codeCell('homeLanguageCode')('ZUL')).toEqual(ok('Zul'));
    expect(codeCell('equityCode')('Black African')).toEqual(ok('BA'));
    expect(codeCell('equityCode')('Indian')).toEqual(ok('BI'));
    expect(codeCell('nationalityCode')('Eswatini')).toEqual(ok('SWA'));
    expect(codeCell('socioeconomicStatusCode')('Employed')).toEqual(ok('01'));
    // A spreadsheet drops the leading 0 of `01`.
    expect(codeCell('disabilityStatusCode')('1')).toEqual(ok('01'));
    expect(codeCell('disabilityStatusCode')('None')).toEqual(ok('N'));
  });

  it("takes the form wording of a meaning and the code tables' own wording alike", () => {
    const pairs: [Parameters<typeof codeCell>[0], string[], string][] = [
      ['citizenResidentStatusCode', ['South African', 'South Africa'], 'SA'],
      ['citizenResidentStatusCode', ['Dual (SA and other)', 'Dual (SA plus other)'], 'D'],
      ['equityCode', ['Black Coloured', 'Black Coloured/Coloured', 'Coloured'], 'BC'],
      ['nationalityCode', ['Eswatini (Swaziland)', 'Swaziland/Eswatini', 'Swaziland'], 'SWA'],
      ['nationalityCode', ['DR Congo (Zaire)', 'Zaire/DRC', 'DRC'], 'ZAI'],
      ['homeLanguageCode', ['Sepedi (Northern Sotho)', 'sePedi/Northern Sotho', 'Northern Sotho'], 'Sep'],
      ['socioeconomicStatusCode', ['Scholar or student (not working)', 'Scholar/student (not working)'], '06'],
      ['disabilityStatusCode', ['Sight (even with glasses)', 'Sight'], '01'],
      ['provinceCode', ['Outside South Africa', 'Outside SA'], 'X'],
      ['title', ['Mr', 'Mister'], 'Mr'],
    ];
    for (const [field, names, code] of pairs) for (const name of names) expect(codeCell(field)(name)).toEqual(ok(code));
  });

  it('gender and yes/no words', () => {
    expect(genderCell('Male')).toEqual(ok('M'));
    expect(genderCell('female')).toEqual(ok('F'));
    expect(genderCell('X')).toEqual({ error: expect.stringContaining('M (Male)') });
    expect(yesNoCell('Yes')).toEqual(ok('yes'));
    expect(yesNoCell('N')).toEqual(ok('no'));
    expect(yesNoCell('maybe')).toEqual({ error: expect.stringContaining('yes or no') });
  });

  it('says Excel changed an ID number into scientific notation, and how to keep it as text', () => {
    expect(digitsCell(true)('9.20122E+12')).toEqual({ error: expect.stringContaining('format the column as Text') });
    expect(digitsCell(true)('9,20122E+12')).toEqual({ error: expect.stringContaining('scientific notation') });
    expect(digitsCell(true)('202204720083')).toEqual({ error: expect.stringContaining('leading 0') });
    expect(digitsCell(true)('9202204720083')).toEqual(ok('9202204720083'));
    expect(digitsCell(false)('8.21234E+08')).toEqual({ error: expect.stringContaining('Excel') });
  });
});
