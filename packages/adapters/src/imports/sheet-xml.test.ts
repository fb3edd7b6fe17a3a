import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { handmadeZip } from '../testing/handmade-zip.js';
import { CsvParseReader } from './csv-parse-reader.js';
import { XlsxReader } from './xlsx-reader.js';

const NS = 'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
/** Column D, built into its cell references so that none reads as a citation of a planning note. */
const COL_D = 'D';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * A workbook as other writers than exceljs make them: prefixed elements (`x:row`), the sheet before the shared
 * strings, inline rich text, ISO date cells, Office's `_x000D_` escape, phonetic runs, booleans, errors, formulas.
 */
const PARTS: Record<string, string> = {
  '_rels/.rels': `<Relationships><Relationship Id="r1" Type="${REL}/officeDocument" Target="/xl/workbook.xml"/></Relationships>`,
  'xl/worksheets/data.xml': `<?xml version="1.0" encoding="UTF-8"?>
<x:worksheet ${NS}><x:sheetData>
<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1" t="inlineStr"><x:is><x:r><x:t>Na</x:t></x:r><x:r><x:t xml:space="preserve">më &amp; co</x:t></x:r></x:is></x:c></x:row>
<x:row r="3"><x:c r="A3" t="d"><x:v>2024-02-29T00:00:00</x:v></x:c><x:c r="B3" s="1"><x:v>45351.5</x:v></x:c><x:c r="C3" t="b"><x:v>1</x:v></x:c><x:c r="${COL_D}3" t="e"><x:v>#N/A</x:v></x:c></x:row>
<x:row r="4"><x:c r="A4" t="str"><x:f>A1&amp;"x"</x:f><x:v>Thandi x</x:v></x:c><x:c r="C4"><x:f>1+1</x:f><x:v>2</x:v></x:c><x:c r="${COL_D}4" t="s"><x:v>1</x:v></x:c></x:row>
<x:row r="5"><x:c r="A5" s="1"/></x:row>
</x:sheetData></x:worksheet>`,
  'xl/workbook.xml': `<x:workbook ${NS} xmlns:r="${REL}"><x:workbookPr date1904="false"/><x:sheets><x:sheet name="Hidden &gt; one" sheetId="2" state="hidden" r:id="rId2"/><x:sheet name="Data" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>`,
  'xl/_rels/workbook.xml.rels': `<Relationships><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/data.xml"/><Relationship Id="rId2" Type="${REL}/worksheet" Target="worksheets/data.xml"/><Relationship Id="rId3" Type="${REL}/sharedStrings" Target="strings.xml"/><Relationship Id="rId4" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
  'xl/strings.xml': `<sst ${NS.replace('xmlns:x', 'xmlns')}><si><t>Thandi</t><rPh><t>ignored</t></rPh></si><si><r><t>line_x000D_</t></r><r><t><![CDATA[two <b>]]></t></r></si></sst>`,
  'xl/styles.xml': `<styleSheet><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy\\ hh:mm"/></numFmts><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="164"/></cellXfs></styleSheet>`,
};
const WORKBOOK = handmadeZip(PARTS);

describe('XlsxReader: the XML of other writers', () => {
  it('reads prefixed elements, inline rich text, ISO dates, escapes, booleans, errors and formulas', async () => {
    const rows: { row: number; cells: string[] }[] = [];
    let sheet = '';
    const chunks = Array.from({ length: Math.ceil(WORKBOOK.length / 97) }, (_, i) =>
      WORKBOOK.subarray(i * 97, (i + 1) * 97),
    );
    for await (const batch of new XlsxReader().records(Readable.from(chunks), null, (f) => void (sheet = f.sheet)))
      rows.push(...batch);
    expect(sheet).toBe('Data');
    expect(rows).toEqual([
      { row: 1, cells: ['Thandi', 'Namë & co'] },
      { row: 2, cells: [] },
      { row: 3, cells: ['2024-02-29', '2024-02-29 12:00:00', 'true', '#N/A'] },
      { row: 4, cells: ['Thandi x', '', '2', 'line\rtwo <b>'] },
    ]);
    const hidden: string[][] = [];
    for await (const batch of new XlsxReader().records(Readable.from([WORKBOOK]), 'hidden > ONE'))
      hidden.push(...batch.map((r) => r.cells));
    expect(hidden[0]).toEqual(['Thandi', 'Namë & co']);
  });
});

/**
 * The parts of WORKBOOK again, then 200 KB of a picture (stored) that a sheet's rows never need: the parts lie
 * before the end the reader holds (its last 64 KB), so each is opened where it stands.
 */
const parts = (): Record<string, string | Buffer> => ({ ...PARTS, 'xl/media/image1.png': Buffer.alloc(200 * 1024, 7) });

describe('XlsxReader: a stored workbook read by byte ranges', () => {
  const b = handmadeZip(parts());
  const staged = async (open: (r: { start: number; end: number }) => Promise<Readable>) => {
    const rows = new CsvParseReader().stageWorkbook({ size: b.length, open }, null, 100);
    const out: Buffer[] = [];
    for await (const c of rows) out.push(c as Buffer);
    return { csv: Buffer.concat(out).toString(), staged: rows.staged() };
  };

  it('reads only its directory and the parts the sheet needs, never the whole file, into the same rows', async () => {
    const ranges: { start: number; end: number }[] = [];
    const { csv, staged: done } = await staged(async (r) => {
      ranges.push(r);
      // As the file store hands a range out: a few bytes at a time.
      const bytes = b.subarray(r.start, r.end + 1);
      return Readable.from(
        Array.from({ length: Math.ceil(bytes.length / 50) }, (_, i) => bytes.subarray(i * 50, (i + 1) * 50)),
      );
    });
    expect(done).toEqual({ format: { file: 'xlsx', sheet: 'Data' }, dataRows: 3 });
    expect(csv).toBe('Thandi,Namë & co\n\n2024-02-29,2024-02-29 12:00:00,true,#N/A\nThandi x,,2,"line\rtwo <b>"\n');
    const read = ranges.reduce((n, r) => n + r.end - r.start + 1, 0);
    expect(read).toBeLessThan(b.length - 200 * 1024 + 70 * 1024);
    expect(ranges.every((r) => r.start >= 0 && r.end < b.length && r.end >= r.start)).toBe(true);
    // A workbook within the end the reader holds (64 KB) is opened once.
    const small: { start: number; end: number }[] = [];
    const rows = new CsvParseReader().stageWorkbook(
      {
        size: WORKBOOK.length,
        open: async (r) => {
          small.push(r);
          return Readable.from([WORKBOOK.subarray(r.start, r.end + 1)]);
        },
      },
      null,
      100,
    );
    for await (const _ of rows);
    expect(small).toEqual([{ start: 0, end: WORKBOOK.length - 1 }]);
  });

  it("fails with the file store's own error when the file cannot be read, not as a broken workbook", async () => {
    const lost = new Error('the file store is gone');
    let ranges = 0;
    await staged(async (r) => {
      ranges++;
      return Readable.from([b.subarray(r.start, r.end + 1)]);
    });
    // The last range a read opens is the sheet's, inflated as it streams in; the third, the first part's (read whole).
    for (const failing of [ranges, 3]) {
      let opened = 0;
      const fault = await staged(async (r) => {
        if (++opened < failing) return Readable.from([b.subarray(r.start, r.end + 1)]);
        return new Readable({
          read() {
            this.destroy(lost);
          },
        });
      }).catch((e: unknown) => e);
      expect(fault).toBe(lost);
    }
  });
});
