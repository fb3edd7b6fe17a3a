import {
  qcto01Record,
  qcto02LearnerRecords,
  type ReadinessFinding,
  type ReadinessReport,
  type RegulatorSettings,
} from '@fundi/domain/exports';
import type { ReadRepos } from './export-reading.js';
import type { ResolvedFilters } from './export-type.js';
import { enrolmentRows } from '../enrolments/enrolment-export.js';
import { learnerRows } from '../learners/learner-export.js';
import { qcto02Learners } from './qcto02-inputs.js';

const MAX_FINDINGS = 10_000;

/**
 * Collects a regulator file's readiness report while it is written. The writers meet each learner once and
 * either write all of the learner's records or none, so the report and the file agree: `ready` counts learners
 * with records in the file, `leftOut` learners with findings, `records` the file's records (docs/api.md,
 * "Regulator files").
 */
export class ReadinessCollector {
  private readyCount = 0;
  private ranSince = performance.now();
  private leftCount = 0;
  private readonly findings: ReadinessFinding[] = [];
  private omitted = 0;
  private readonly fields = new Map<string, number>();
  records = 0;

  wrote(records: number): void {
    this.readyCount++;
    this.records += records;
  }
  leftOut(findings: ReadinessFinding[]): void {
    this.leftCount++;
    for (const field of new Set(findings.map((f) => f.field)))
      this.fields.set(field, (this.fields.get(field) ?? 0) + 1);
    for (const f of findings) {
      if (this.findings.length < MAX_FINDINGS) this.findings.push(f);
      else this.omitted++;
    }
  }
  /**
   * With `breathe` (a count made while a server answers requests), the writers stop after a learner once the
   * count has held the thread for `breathe` ms, so requests are answered meanwhile: reads from SQLite are
   * synchronous and their promises resolve at once, so without a pause a count of every learner answers nothing
   * else until it ends. Without it (an export job), there is no pause.
   */
  constructor(private readonly breathe?: number) {}

  pause(): Promise<void> | null {
    if (this.breathe === undefined || performance.now() - this.ranSince < this.breathe) return null;
    return new Promise((resume) =>
      setImmediate(() => {
        this.ranSince = performance.now();
        resume();
      }),
    );
  }

  /** How many learners were left out for each field (every finding counted, listed or not), most first. */
  byField(): { field: string; learners: number }[] {
    return [...this.fields]
      .map(([field, learners]) => ({ field, learners }))
      .sort((a, b) => b.learners - a.learners || (a.field < b.field ? -1 : 1));
  }
  report(): ReadinessReport {
    return {
      ready: this.readyCount,
      leftOut: this.leftCount,
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
        report.wrote(1);
      } else report.leftOut(rec.findings);
      const paused = report.pause();
      if (paused) await paused;
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

/**
 * QCTO02 records: one per module of each selected enrolment's programme. Learners come in the order of their
 * first selected enrolment; each is met once with all their selected enrolments, and written whole or left out.
 * The reads are set-based, a page of learners at a time (`qcto02Learners`).
 */
export async function* qcto02Chunks(
  r: ReadRepos,
  tenantId: string,
  f: ResolvedFilters,
  s: RegulatorSettings,
  today: string,
  report: ReadinessCollector,
): AsyncGenerator<Buffer> {
  for await (const batch of qcto02Learners(r, tenantId, f)) {
    let out = '';
    for (const { inputs } of batch) {
      const res = qcto02LearnerRecords(inputs, s, today);
      if (res.findings.length) report.leftOut(res.findings);
      else {
        out += res.records.join('');
        report.wrote(res.records.length);
      }
      const paused = report.pause();
      if (paused) await paused;
    }
    if (out) yield Buffer.from(out, 'latin1');
  }
}
