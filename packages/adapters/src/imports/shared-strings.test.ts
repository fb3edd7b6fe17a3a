import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { handmadeZip } from '../testing/handmade-zip.js';
import { type SharedStrings, sharedStringsOf } from './shared-strings.js';
import { cellParts } from './workbook-parts.js';
import { XlsxReader } from './xlsx-reader.js';
import { heldZip, zipEntries } from './zip-directory.js';

/**
 * A shared strings part with what a chunk's edge may cut: a plain string, an entity (`&amp;`), a character
 * reference, Office's `_x000D_` escape, a rich-text string of runs with a phonetic guide, a CDATA section, and
 * characters of two, three and four UTF-8 bytes.
 */
const PART = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="7" uniqueCount="7"><si><t>Thandiwe Mokoena-Dlamini</t></si><si><t>Smith &amp; Sons &lt;Pty&gt; &#233;</t></si><si><t xml:space="preserve">line one_x000D_
line two_x005F_x</t></si><si><r><rPr><b/></rPr><t>Na</t></r><r><t xml:space="preserve">më </t></r><rPh sb="0" eb="1"><t>ignored</t></rPh><r><t><![CDATA[& <co>]]></t></r></si><si><t>Zoë Müller € 𝄞 ñ</t></si><si><t/></si><si><t>ok</t></si></sst>`;

const WANT = [
  'Thandiwe Mokoena-Dlamini',
  'Smith & Sons <Pty> é',
  'line one\r\nline two_x',
  'Namë & <co>',
  'Zoë Müller € 𝄞 ñ',
  '',
  'ok',
];

/** Every string of the table, in order. */
const all = (t: SharedStrings) => Array.from({ length: t.length }, (_, i) => t.get(i));

async function* pieces(b: Buffer, cuts: number[]): AsyncGenerator<Buffer> {
  let from = 0;
  for (const c of [...cuts, b.length]) {
    yield b.subarray(from, c);
    from = c;
  }
}

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const WORKBOOK = {
  'xl/workbook.xml': `<workbook xmlns:r="${REL}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  'xl/_rels/workbook.xml.rels': `<Relationships><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/s.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
  'xl/worksheets/s.xml': `<worksheet><sheetData><row r="1">${WANT.map((_, i) => `<c t="s"><v>${i}</v></c>`).join('')}</row></sheetData></worksheet>`,
  'xl/sharedStrings.xml': PART,
};

describe('shared strings read a chunk at a time', () => {
  const part = Buffer.from(PART);

  it('reads the same strings however the part is cut in two, at every byte', async () => {
    for (let cut = 0; cut <= part.length; cut++)
      expect(all(await sharedStringsOf(pieces(part, [cut]))), `cut at byte ${cut}`).toEqual(WANT);
  });

  it('reads the same strings in chunks of 1 to 17 bytes', async () => {
    for (let size = 1; size <= 17; size++) {
      const cuts = Array.from({ length: Math.ceil(part.length / size) - 1 }, (_, i) => (i + 1) * size);
      expect(all(await sharedStringsOf(pieces(part, cuts))), `chunks of ${size}`).toEqual(WANT);
    }
  });

  it('reads a deflated part and a stored part through the ZIP a few bytes at a time', async () => {
    for (const method of [8, 0] as const) {
      const b = handmadeZip(WORKBOOK, method);
      const entries = await zipEntries(heldZip(b));
      for (const size of [1, 3, 64, 100])
        if (method === 0 || size >= 64)
          expect(all((await cellParts(heldZip(b), entries, 'xl/workbook.xml', size)).sharedStrings)).toEqual(WANT);
      const rows: string[][] = [];
      for await (const batch of new XlsxReader().records(Readable.from([b]), null))
        rows.push(...batch.map((r) => r.cells));
      expect(rows).toEqual([WANT.slice(0, 5).concat(['', 'ok'])]);
    }
  });

  it('refuses a part cut off inside a string', async () => {
    const inside = part.indexOf('Mokoena') + 3;
    await expect(sharedStringsOf(pieces(part.subarray(0, inside), [10]))).rejects.toThrow('unexpected end of the XML');
  });

  it('keeps thousands of strings across blocks, one longer than a block apart, and answers none past the last', async () => {
    const want = Array.from({ length: 5000 }, (_, i) => `${i}:${'é€x'.repeat(i % 300)}`);
    want[2500] = `long ${'ü'.repeat(600_000)}`;
    const xml = `<sst>${want.map((w) => `<si><t>${w}</t></si>`).join('')}</sst>`;
    const table = await sharedStringsOf(pieces(Buffer.from(xml), [100_000, 1_500_000]));
    expect(table.length).toBe(5000);
    expect(all(table)).toEqual(want);
    // Again: the strings made last are kept by index modulo 4,096, and 5,000 strings share those places.
    expect(all(table)).toEqual(want);
    expect([table.get(-1), table.get(5000), table.get(Number.NaN)]).toEqual([undefined, undefined, undefined]);
  });
});
