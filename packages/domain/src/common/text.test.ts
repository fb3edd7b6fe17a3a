import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import { displayableFileName, isSafeFileName, isSafeText, safeText } from './text.js';
import { Learner } from '../learners/learner.js';
import { parseFilename } from '../evidence/evidence-fields.js';
import { anIdNumber } from '../testing/builders.js';

const FORBIDDEN = [
  '\u0000',
  '\u0007',
  '\u0008',
  '\u000b',
  '\u000c',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0080',
  '\u0085',
  '\u009f',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\ud800',
  '\udfff',
  'x\udc00',
];

describe('the text rule (docs/api.md, "Text")', () => {
  it.each(FORBIDDEN.map((c) => [JSON.stringify(c), c]))('refuses %s, in text and in file names', (_, c) => {
    expect(isSafeText(`a${c}b`)).toBe(false);
    expect(isSafeFileName(`a${c}b.pdf`)).toBe(false);
    expect(() => safeText(`a${c}b`, 'firstName')).toThrow(DomainError);
  });

  it('takes tab and line breaks in text, but not in file names; takes any other character, pairs of surrogates too', () => {
    for (const c of ['\t', '\n', '\r']) {
      expect(isSafeText(`a${c}b`)).toBe(true);
      expect(isSafeFileName(`a${c}b`)).toBe(false);
    }
    const fine = 'Thandi Mokoena-Dube, Ş é ß 日本 😀 \u200d \u00a0 \u2028';
    expect(isSafeText(fine)).toBe(true);
    expect(isSafeFileName('Sertifikaat — Thandi 😀.pdf')).toBe(true);
  });

  it('writes a file name out with `_` for each character a name may not hold', () => {
    expect(displayableFileName('invoice\u202Efdp.exe')).toBe('invoice_fdp.exe');
    expect(displayableFileName('a\r\nb\u0000c\ud800.pdf')).toBe('a__b_c_.pdf');
    expect(displayableFileName('Ünïcode 😀.pdf')).toBe('Ünïcode 😀.pdf');
  });

  it('is the rule of every learner text field and of file names, named by field', () => {
    const idNumber = anIdNumber();
    const at = { id: 'lrn_1', tenantId: 'ten_1', now: new Date('2026-01-01T00:00:00Z') };
    for (const [field, value] of [
      ['firstName', 'Es\u001bc'],
      ['lastName', 'gnp.\u202Eexe'],
      ['employer', 'Acme\u0085'],
      ['middleName', 'Del\u007f'],
    ] as const)
      expect(() => Learner.register({ firstName: 'A', lastName: 'B', idNumber, [field]: value }, at)).toThrow(
        expect.objectContaining({ details: [{ field, message: expect.stringContaining('control character') }] }),
      );
    expect(() => parseFilename('a\r\nb.pdf')).toThrow(
      expect.objectContaining({ details: [expect.objectContaining({ field: 'filename' })] }),
    );
    expect(parseFilename('C:\\docs\\Ünïcode.pdf')).toBe('Ünïcode.pdf');
  });
});
