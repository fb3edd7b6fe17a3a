import {
  qcto01Record,
  qcto02Records,
  type AssessmentSnapshot,
  type ProgrammeSnapshot,
  type ReadinessFinding,
  type ReadinessReport,
  type RegulatorSettings,
} from '@fundi/domain';
import { BOM, csvLine } from './csv.js';
import type { Column } from './export-columns.js';
import { enrolmentRows, learnerRows, pages, type ReadRepos, type ResolvedFilters } from './export-rows.js';

/** Lines are handed on in chunks of about this many bytes (fewer, larger writes to the store). */
const CHUNK = 64 * 1024;

export interface Counter {
  rows: number;
}

/** A CSV (BOM, header, CRLF records) of `fields` over row batches, in chunks; counts the data rows. */
export async function* csvChunks<R>(
  columns: Record<string, Column<R>>,
  fields: readonly string[],
  batches: AsyncIterable<R[]>,
  count: Counter,
): AsyncGenerator<Buffer> {
  const getters = fields.map((f) => columns[f]!);
  let out = BOM + csvLine(fields);
  const values: ReturnType<Column<R>>[] = new Array(getters.length);
  for await (const batch of batches) {
    for (const row of batch) {
      for (let i = 0; i < getters.length; i++) values[i] = getters[i]!(row);
      out += csvLine(values);
      count.rows++;
      if (out.length >= CHUNK) {
        yield Buffer.from(out, 'utf8');
        out = '';
      }
    }
  }
  if (out) yield Buffer.from(out, 'utf8');
}

const MAX_FINDINGS = 10_000;

/** Collects a regulator file's readiness report while it is written. */
export class ReadinessCollector {
  private readonly ready = new Set<string>();
  private readonly left = new Set<string>();
  private readonly findings: ReadinessFinding[] = [];
  private omitted = 0;
  records = 0;

  wrote(learnerId: string, records: number): void {
    this.ready.add(learnerId);
    this.records += records;
  }
  leftOut(learnerId: string, findings: ReadinessFinding[]): void {
    this.left.add(learnerId);
    for (const f of findings) {
      if (this.findings.length < MAX_FINDINGS) this.findings.push(f);
      else this.omitted++;
    }
  }
  report(): ReadinessReport {
    // A learner left out for one enrolment is not counted as ready for another (QCTO02 leaves out the learner).
    for (const id of this.left) this.ready.delete(id);
    return {
      ready: this.ready.size,
      leftOut: this.left.size,
      records: this.records,
      findings: this.findings,
      omittedFindings: this.omitted,
    };
  }
}

/**
 * QCTO01 records: every learner, or with `programmeId`, `from` or `to` the learners with an enrolment in that
 * programme starting in that period (docs/api.md, "Regulator files").
 */
export async function* qcto01Chunks(
  r: ReadRepos,
  tenantId: string,
  f: ResolvedFilters,
  s: RegulatorSettings,
  today: string,
  report: ReadinessCollector,
): AsyncGenerator<Buffer> {
  const batches =
    f.programmeCode || f.from || f.to ? viaEnrolments(r, tenantId, f) : learnerRows(r, tenantId, {}, false);
  for await (const batch of batches) {
    let out = '';
    for (const { l } of batch) {
      const rec = qcto01Record(l, s, today);
      if (rec.record) {
        out += rec.record;
        report.wrote(l.id, 1);
      } else report.leftOut(l.id, rec.findings);
    }
    if (out) yield Buffer.from(out, 'latin1');
  }
}

/** The learners with an enrolment the filters select, each once. */
async function* viaEnrolments(r: ReadRepos, tenantId: string, f: ResolvedFilters) {
  const seen = new Set<string>();
  for await (const batch of enrolmentRows(r, tenantId, f)) {
    const rows = [];
    for (const { l } of batch) {
      if (!l || seen.has(l.id)) continue;
      seen.add(l.id);
      rows.push({ l });
    }
    yield rows;
  }
}

/** QCTO02 records: one per enrolment and module of its programme, for the enrolments the filters select. */
export async function* qcto02Chunks(
  r: ReadRepos,
  tenantId: string,
  f: ResolvedFilters,
  s: RegulatorSettings,
  today: string,
  report: ReadinessCollector,
): AsyncGenerator<Buffer> {
  const programmes = new Map<string, ProgrammeSnapshot | null>();
  for await (const batch of enrolmentRows(r, tenantId, f)) {
    let out = '';
    for (const { e, l } of batch) {
      if (!l) continue;
      if (!programmes.has(e.programmeId))
        programmes.set(e.programmeId, await r.programmes.findById(tenantId, e.programmeId));
      const programme = programmes.get(e.programmeId);
      if (!programme) continue;
      const assessments: AssessmentSnapshot[] = [];
      for await (const page of pages((p) => r.assessments.list(tenantId, { enrolmentId: e.id }, p)))
        assessments.push(...page);
      const res = qcto02Records({ learner: l, enrolment: e, programme, assessments }, s, today);
      if (res.findings.length) report.leftOut(l.id, res.findings);
      else {
        out += res.records.join('');
        report.wrote(l.id, res.records.length);
      }
    }
    if (out) yield Buffer.from(out, 'latin1');
  }
}
