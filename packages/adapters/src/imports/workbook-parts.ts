import { CHUNK_BYTES, entryChunks, entryText, type ZipBytes, type ZipEntry } from './zip-directory.js';
import { SharedStrings, sharedStringsOf } from './shared-strings.js';
import { attr, XmlScanner } from './xml-scan.js';

/** A sheet of the workbook, in the workbook's order, with the ZIP part of its XML (absent: a chart sheet). */
export interface SheetEntry {
  name: string;
  state?: string;
  part?: string;
}

/** The parts of a workbook a sheet's rows are read with. */
export interface WorkbookParts {
  sheets: SheetEntry[];
  /** Dates counted from 1904 (old Mac Excel). */
  date1904: boolean;
  sharedStrings: SharedStrings;
  /** By cell style index: whether its number format shows a date. */
  dateStyles: boolean[];
}

/** A tag's attribute, by name. */
type Attrs = (name: string) => string | undefined;

/** Scans a small part for the tags it holds (no text). */
function scan(text: string, open: (name: string, attrs: Attrs) => void, close: (name: string) => void = () => {}) {
  const s = new XmlScanner({
    open: (name, xml, from, to) => open(name, (a) => attr(xml, from, to, a)),
    close,
    wantsText: false,
    text: () => {},
  });
  s.feed(text);
  s.end();
}

/** Resolves a relationship's target against the folder of the part that names it. */
function resolve(from: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = from.split('/').slice(0, -1);
  for (const p of target.split('/'))
    if (p === '..') parts.pop();
    else if (p !== '.') parts.push(p);
  return parts.join('/');
}

const relsOf = (part: string) => resolve(part, `_rels/${part.split('/').pop()}.rels`);

async function relationships(
  zip: ZipBytes,
  entries: Map<string, ZipEntry>,
  part: string,
): Promise<Map<string, { type: string; target: string }>> {
  const out = new Map<string, { type: string; target: string }>();
  const e = entries.get(relsOf(part));
  if (!e) return out;
  scan(await entryText(zip, e), (name, attrOf) => {
    if (name !== 'Relationship') return;
    const id = attrOf('Id');
    const target = attrOf('Target');
    if (id && target && attrOf('TargetMode') !== 'External')
      out.set(id, { type: attrOf('Type') ?? '', target: resolve(part, target) });
  });
  return out;
}

/** The workbook's own part: named by the package's relationships, `xl/workbook.xml` as Excel writes it. */
async function workbookPart(zip: ZipBytes, entries: Map<string, ZipEntry>): Promise<string | undefined> {
  const root = entries.get('_rels/.rels');
  if (root) {
    let found: string | undefined;
    scan(await entryText(zip, root), (name, attrOf) => {
      if (name === 'Relationship' && attrOf('Type')?.endsWith('/officeDocument'))
        found ??= resolve('', attrOf('Target') ?? '');
    });
    if (found && entries.has(found)) return found;
  }
  return entries.has('xl/workbook.xml') ? 'xl/workbook.xml' : undefined;
}

/** The workbook's sheets and whether it counts dates from 1904; null when the ZIP holds no workbook. */
export async function workbookOf(
  zip: ZipBytes,
  entries: Map<string, ZipEntry>,
): Promise<{ part: string; sheets: SheetEntry[]; date1904: boolean } | null> {
  const part = await workbookPart(zip, entries);
  if (!part) return null;
  const rels = await relationships(zip, entries, part);
  const sheets: SheetEntry[] = [];
  let date1904 = false;
  scan(await entryText(zip, entries.get(part)!), (name, attrOf) => {
    if (name === 'workbookPr') {
      const d = attrOf('date1904');
      date1904 = d === '1' || d === 'true';
    } else if (name === 'sheet') {
      const sheetName = attrOf('name');
      if (sheetName === undefined) return;
      const rel = rels.get(attrOf('id') ?? '');
      const part = rel?.type.endsWith('/worksheet') && entries.has(rel.target) ? rel.target : undefined;
      sheets.push({ name: sheetName, state: attrOf('state'), ...(part ? { part } : {}) });
    }
  });
  return { part, sheets, date1904 };
}

/** The other parts a sheet's cells need: shared strings (read `chunkBytes` at a time), and which styles show dates. */
export async function cellParts(
  zip: ZipBytes,
  entries: Map<string, ZipEntry>,
  workbook: string,
  chunkBytes = CHUNK_BYTES,
): Promise<{ sharedStrings: SharedStrings; dateStyles: boolean[] }> {
  const rels = [...(await relationships(zip, entries, workbook)).values()];
  const partOf = (type: string, fallback: string) =>
    rels.find((r) => r.type.endsWith(`/${type}`) && entries.has(r.target))?.target ??
    (entries.has(fallback) ? fallback : undefined);
  const strings = partOf('sharedStrings', 'xl/sharedStrings.xml');
  const styles = partOf('styles', 'xl/styles.xml');
  return {
    sharedStrings: strings
      ? await sharedStringsOf(entryChunks(zip, entries.get(strings)!, chunkBytes))
      : new SharedStrings(),
    dateStyles: styles ? dateStylesOf(await entryText(zip, entries.get(styles)!)) : [],
  };
}

/** Number formats Excel has built in that show dates or times (by id; the ids of Asian locales' dates too). */
const BUILT_IN_DATES = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56,
  57, 58,
]);

/** A number format code that shows a date or time (its letters outside quotes and brackets), as exceljs tells it. */
export function isDateFormat(code: string): boolean {
  const bare = code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, '');
  return /[ymdhMsb]+/.test(bare);
}

function dateStylesOf(xml: string): boolean[] {
  const custom = new Map<number, string>();
  const out: boolean[] = [];
  let inCellXfs = false;
  scan(
    xml,
    (name, attrOf) => {
      if (name === 'numFmt') custom.set(Number(attrOf('numFmtId')), attrOf('formatCode') ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        const id = Number(attrOf('numFmtId') ?? 0);
        const code = custom.get(id);
        out.push(code !== undefined ? isDateFormat(code) : BUILT_IN_DATES.has(id));
      }
    },
    (name) => void (name === 'cellXfs' && (inCellXfs = false)),
  );
  return out;
}
