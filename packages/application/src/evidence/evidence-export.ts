import { EVIDENCE_STATUSES, type EvidenceRepos, type EvidenceSnapshot } from '@fundi/domain/evidence';
import type { LearnerRepos, LearnerSnapshot } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';
import { dayEnd, dayStart, pages, statusOf } from '../exports/export-reading.js';
import { csvExportType, type Column, type ResolvedFilters } from '../exports/export-type.js';
import { learnersOf, personColumns } from '../learners/learner-columns.js';

export interface EvidenceRow {
  ev: EvidenceSnapshot;
  l: LearnerSnapshot | null;
}

export const EVIDENCE_COLUMNS: Record<string, Column<EvidenceRow>> = {
  id: (r) => r.ev.id,
  ...personColumns<EvidenceRow>(),
  enrolment_id: (r) => r.ev.enrolmentId,
  module: (r) => r.ev.moduleId,
  evidence_type: (r) => r.ev.evidenceType,
  version: (r) => r.ev.current.version,
  filename: (r) => r.ev.current.filename,
  content_type: (r) => r.ev.current.contentType,
  size: (r) => r.ev.current.size,
  status: (r) => r.ev.current.status,
  reviewed_at: (r) => r.ev.current.reviewedAt,
  created_at: (r) => r.ev.createdAt,
  updated_at: (r) => r.ev.updatedAt,
};

type EvidenceReading = Pick<EvidenceRepos, 'evidence'> &
  Pick<LearnerRepos, 'learners'> &
  Pick<TrainingRepos, 'enrolments'>;

/** Evidence (current versions) by creation date, review status and programme (through its enrolment). */
export async function* evidenceRows(
  r: EvidenceReading,
  tenantId: string,
  f: ResolvedFilters,
): AsyncGenerator<EvidenceRow[]> {
  const filter = { from: dayStart(f.from), to: dayEnd(f.to), status: statusOf(EVIDENCE_STATUSES, f.status) };
  for await (const batch of pages((p) => r.evidence.list(tenantId, filter, p))) {
    let kept = batch;
    if (f.programmeId) {
      const programmeOf = new Map<string, string | null>();
      for (const id of new Set(batch.map((e) => e.enrolmentId)))
        programmeOf.set(id, (await r.enrolments.findById(tenantId, id))?.programmeId ?? null);
      kept = batch.filter((e) => programmeOf.get(e.enrolmentId) === f.programmeId);
    }
    const learners = await learnersOf(
      r,
      tenantId,
      kept.map((e) => e.learnerId),
    );
    yield kept.map((ev) => ({ ev, l: learners.get(ev.learnerId) ?? null }));
  }
}

/** The evidence CSV (docs/api.md, "Exports"): the records, not their files. */
export const evidenceExport = csvExportType({
  name: 'evidence',
  label: 'Evidence (CSV)',
  status: { values: EVIDENCE_STATUSES, described: 'review status' },
  inFull: 'evidence.csv',
  columns: EVIDENCE_COLUMNS,
  rows: evidenceRows,
});
