import { type Readable, Transform } from 'node:stream';
import type { CsvReader, CsvRecord, StagedWorkbook, WorkbookFile } from '@fundi/application/imports';
import { DomainError } from '@fundi/domain';
import type { ImportFileKind, ImportFormat } from '@fundi/domain/imports';
import { csvFault, csvRecords } from './csv-records.js';
import { CsvShape } from './csv-shape.js';
import { Utf8Guard, delimiterOf, headOf } from './csv-text.js';
import { TextTranscoder } from './text-encoding.js';
import { stagedSheet } from './workbook-stage.js';
import { isEncryptedWorkbook, OLE_SIGNATURE, oleProblem, peek, XlsxReader, ZIP_SIGNATURE } from './xlsx-reader.js';
import { storedZip } from './zip-directory.js';

/**
 * csv-parse behind the `CsvReader` port, with a UTF-8, binary and row-limit check in front of it, yielding to the
 * event loop every few milliseconds of work.
 */
export class CsvParseReader implements CsvReader {
  private readonly xlsx = new XlsxReader();

  async *records(
    input: Readable,
    found?: (format: ImportFormat) => void,
    sheet: string | null = null,
  ): AsyncIterable<CsvRecord[]> {
    // Told by the content, never by the name: a ZIP is read as a workbook (docs/api.md, "Imports").
    const { head, all: source } = await peek(input, ZIP_SIGNATURE.length);
    if (head.subarray(0, ZIP_SIGNATURE.length).equals(ZIP_SIGNATURE)) {
      yield* this.xlsx.records(source, sheet, found);
      return;
    }
    const text = new TextTranscoder();
    const guard = new Utf8Guard();
    source.on('error', (e) => text.destroy(e));
    text.on('error', (e) => guard.destroy(e));
    source.pipe(text).pipe(guard);
    try {
      const { head, all } = await headOf(guard);
      const delimiter = delimiterOf(head);
      found?.({ file: 'csv', encoding: text.encoding, delimiter });
      yield* csvRecords(all, delimiter);
      if (guard.fault) throw guard.fault;
    } catch (e) {
      // The text ended at the guard's fault (perhaps inside a quote, which csv-parse then reports): the fault it is.
      if (guard.fault) throw guard.fault;
      throw csvFault(e);
    } finally {
      source.unpipe?.();
      source.destroy();
      text.destroy();
      guard.destroy();
    }
  }

  stageWorkbook(file: WorkbookFile, sheet: string | null, maxDataRows: number): StagedWorkbook {
    const zip = storedZip(file.size, file.open);
    return stagedSheet((found) => this.xlsx.recordsOf(zip, sheet, found, 'options.sheet'), maxDataRows);
  }

  rowLimit(maxDataRows: number): Transform & { dataRows(): number; kind(): ImportFileKind } {
    // Rows are followed as csv-parse reads them (CsvShape), without parsing: many times faster, and the validation
    // step parses properly anyway. The first bytes tell a workbook, which passes uncounted.
    const shape = new CsvShape();
    let kind: ImportFileKind | 'ole' | null = null;
    let oleTail: Buffer = Buffer.alloc(0);
    let oleHead: Buffer = Buffer.alloc(0);
    const refuse = (head: Buffer) =>
      new DomainError('invalid', 'unreadable_workbook', `file: ${oleProblem(head)}`, [
        { field: 'file', message: oleProblem(head) },
      ]);
    const records = () => shape.rows + (shape.lastByte === 0x0a ? 0 : 1);
    const over = () =>
      records() - 1 > maxDataRows
        ? new DomainError('invalid', 'too_many_rows', `The file has more than ${maxDataRows} data rows`, [
            { field: 'file', message: `has more than ${maxDataRows} data rows; split it into several files` },
          ])
        : null;
    const t = new Transform({
      transform(chunk: Buffer, _enc, done) {
        if (kind === null) {
          kind = chunk.subarray(0, ZIP_SIGNATURE.length).equals(ZIP_SIGNATURE)
            ? 'xlsx'
            : chunk.subarray(0, OLE_SIGNATURE.length).equals(OLE_SIGNATURE)
              ? 'ole'
              : 'csv';
          oleHead = kind === 'ole' ? chunk : oleHead;
        }
        if (kind === 'xlsx') return done(null, chunk);
        if (kind === 'ole') {
          // Refused whole: an encrypted workbook names its EncryptedPackage somewhere in its directory.
          const seen = Buffer.concat([oleTail, chunk]);
          if (isEncryptedWorkbook(seen)) return done(refuse(seen));
          oleTail = Buffer.from(seen.subarray(Math.max(0, seen.length - 64)));
          return done();
        }
        const fault = shape.scan(chunk);
        if (fault)
          done(
            new DomainError('invalid', fault.code, `file: ${fault.message}`, [
              { field: 'file', message: fault.message },
            ]),
          );
        else done(over(), chunk);
      },
      flush(done) {
        if (kind === 'ole') return done(refuse(oleHead));
        done(kind === 'xlsx' ? null : over());
      },
    });
    return Object.assign(t, {
      dataRows: () => (kind === 'xlsx' ? 0 : Math.max(0, records() - 1)),
      kind: (): ImportFileKind => (kind === 'xlsx' ? 'xlsx' : 'csv'),
    });
  }
}
