import { Readable } from 'node:stream';
import type { ProgrammeSnapshot } from '@fundi/domain/training';
import { qctoFileName, type ExportSnapshot, type RegulatorSettings } from '@fundi/domain/exports';
import { enrolmentRows } from '../enrolments/enrolment-export.js';
import { BOM, csvLine } from '../files/csv.js';
import { csvChunks, type Counter } from './csv-chunks.js';
import type { ExportPorts } from './export-ports.js';
import type { Column, ExportTypeDef, ResolvedFilters } from './export-type.js';
import { ReadinessCollector, qcto01Chunks, qcto02Chunks } from './export-writers.js';
import { DETAIL_COLUMNS, SUMMARY_COLUMNS, TrainingSummary, type TrainingRow } from './wsp-atr.js';

/** What a run produces: the bytes (streamed), and what is known once they are all written. */
export interface ExportFile {
  fileName: string;
  contentType: string;
  kind: 'document' | 'archive';
  stream: Readable;
  /** Read after the stream ended. */
  rowCount(): number;
  readiness(): ExportSnapshot['readiness'];
}

type Deps = Pick<ExportPorts, 'repos' | 'zip' | 'types' | 'system'>;

/** The CSV of a contributed type over the export's filters and columns (its defaults when none were chosen). */
function csvOf(d: Deps, t: ExportTypeDef, e: ExportSnapshot, count: Counter): AsyncGenerator<Buffer> {
  if (!t.csv) throw new Error(`The export type ${t.name} has no CSV`);
  return t.csv.chunks(d.repos, e.tenantId, e.filters as ResolvedFilters, e.fields ?? t.csv.defaults, count, d.system);
}

const stamp = (at: string) => at.slice(0, 10).replaceAll('-', '');

/** The ATR covers a past period (default: last calendar year), the WSP a planned one (default: this year). */
export function periodOf(e: ExportSnapshot, today: string): { from: string; to: string } {
  const year = Number(today.slice(0, 4)) - (e.type === 'atr' ? 1 : 0);
  return { from: e.filters.from ?? `${year}-01-01`, to: e.filters.to ?? `${year}-12-31` };
}

/** The training rows of an ATR (enrolments active in the period) or a WSP (open enrolments starting in it). */
async function* trainingRows(d: Deps, e: ExportSnapshot, period: { from: string; to: string }) {
  const programmes = new Map<string, ProgrammeSnapshot | null>();
  const f = e.filters as ResolvedFilters;
  const filter: ResolvedFilters =
    e.type === 'wsp' ? { ...f, ...period } : { programmeCode: f.programmeCode, status: f.status, to: period.to };
  for await (const batch of enrolmentRows(d.repos, e.tenantId, filter)) {
    const rows: TrainingRow[] = [];
    for (const { e: en, l } of batch) {
      if (!l) continue;
      if (e.type === 'wsp' && (en.status === 'completed' || en.status === 'withdrawn')) continue;
      const end = en.achievementDate ?? (en.status === 'withdrawn' ? en.updatedAt.slice(0, 10) : null);
      if (e.type === 'atr' && end !== null && end < period.from) continue;
      if (!programmes.has(en.programmeId))
        programmes.set(en.programmeId, await d.repos.programmes.findById(e.tenantId, en.programmeId));
      const p = programmes.get(en.programmeId);
      if (p) rows.push({ l, e: en, p, asOf: period.to });
    }
    yield rows;
  }
}

/** Builds the file of an export: rows stream from the repositories through the writer (memory stays flat). */
export function exportFile(d: Deps, e: ExportSnapshot, settings: RegulatorSettings, today: string): ExportFile {
  const count: Counter = { rows: 0 };
  const base = { rowCount: () => count.rows, readiness: () => null };
  const fromGen = (g: AsyncIterable<Buffer>) => Readable.from(g, { objectMode: false });
  const name = (ext: string) => `${e.type}-${stamp(e.createdAt)}-${e.id}.${ext}`;
  if (e.type === 'qcto01' || e.type === 'qcto02') {
    const report = new ReadinessCollector();
    const chunks = (e.type === 'qcto01' ? qcto01Chunks : qcto02Chunks)(
      d.repos,
      e.tenantId,
      e.filters as ResolvedFilters,
      settings,
      today,
      report,
    );
    return {
      fileName: qctoFileName(e.type === 'qcto01' ? 'QCTO01' : 'QCTO02', settings.sdpCode, today),
      contentType: 'text/plain',
      kind: 'document',
      stream: fromGen(chunks),
      rowCount: () => report.records,
      readiness: () => report.report(),
    };
  }
  if (e.type === 'full') {
    // Every type that names its file in the full export, in the capability list's order.
    const entries = d.types.flatMap((t) =>
      t.inFull ? [{ name: t.inFull, open: () => fromGen(csvOf(d, t, { ...e, fields: null }, count)) }] : [],
    );
    return { ...base, fileName: name('zip'), contentType: 'application/zip', kind: 'archive', stream: d.zip(entries) };
  }
  if (e.type === 'atr' || e.type === 'wsp') {
    const period = periodOf(e, today);
    const summary = new TrainingSummary();
    async function* detail() {
      for await (const batch of trainingRows(d, e, period)) {
        for (const r of batch) summary.add(r);
        yield batch;
      }
    }
    async function* summaryCsv() {
      let out = BOM + csvLine(SUMMARY_COLUMNS);
      for (const row of summary.rows(period)) out += csvLine(row);
      yield Buffer.from(out, 'utf8');
    }
    const detailCols = DETAIL_COLUMNS as Record<string, Column<TrainingRow>>;
    const entries = [
      {
        name: `${e.type}-detail.csv`,
        open: () => fromGen(csvChunks(detailCols, Object.keys(detailCols), detail(), count)),
      },
      { name: `${e.type}-summary.csv`, open: () => fromGen(summaryCsv()) },
    ];
    return { ...base, fileName: name('zip'), contentType: 'application/zip', kind: 'archive', stream: d.zip(entries) };
  }
  const type = d.types.find((t) => t.name === e.type && !t.fullOnly);
  if (!type) throw new Error(`No capability offers the export type ${e.type}`);
  return {
    ...base,
    fileName: name('csv'),
    contentType: 'text/csv; charset=utf-8',
    kind: 'document',
    stream: fromGen(csvOf(d, type, e, count)),
  };
}
