import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv.js';

describe('CSV cells: the formula-injection rule', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+SUM(A1:A2)', "'+SUM(A1:A2)"],
    ['-2+3', "'-2+3"],
    ['@x', "'@x"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', `"'\rcmd"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
  ])('%j is neutralised', (input, out) => {
    expect(csvCell(input)).toBe(out);
  });

  it.each([
    ['+27831234567', '+27831234567'],
    ['-12.5', '-12.5'],
    ['-2', '-2'],
    ['42', '42'],
    ['Nkosi', 'Nkosi'],
    ['a-b', 'a-b'],
  ])('%j is left intact', (input, out) => {
    expect(csvCell(input)).toBe(out);
  });

  it('quotes commas, quotes and line breaks; empty for null', () => {
    expect(csvLine(['a,b', 'say "hi"', 'x\ny', null, 3])).toBe('"a,b","say ""hi""","x\ny",,3\r\n');
  });
});
