import type { LogbookRepos } from '@fundi/domain/logbooks';
import { ENROLMENT_STATUSES, OUTCOMES } from '@fundi/domain/training';
import { EVIDENCE_STATUSES } from '@fundi/domain/evidence';
import type { AssessmentRow, EnrolmentRow, EvidenceRow, LearnerRow, LogbookRow } from './export-columns.js';
import { auditView, type AuditView } from '../audit/audit-view.js';
import { DescribeActors } from '../common/describe-actors.js';
import {
  dayEnd,
  dayStart,
  learnersOf,
  pages,
  statusOf,
  type ReadRepos,
  type ResolvedFilters,
} from './export-reading.js';

/**
 * Learners, one row each. Without enrolment filters: by creation date (`from`/`to`), only `learnerIds` when given. With `programmeId` or
 * `status`: the learners with a matching enrolment (by its start date), each once, with that enrolment.
 */
export async function* learnerRows(
  r: ReadRepos,
  tenantId: string,
  f: ResolvedFilters,
  withEnrolments: boolean,
): AsyncGenerator<LearnerRow[]> {
  if (f.programmeCode || f.status) {
    const seen = new Set<string>();
    for await (const batch of enrolmentRows(r, tenantId, f)) {
      const rows: LearnerRow[] = [];
      for (const { e, l } of batch) {
        if (!l || seen.has(l.id)) continue;
        seen.add(l.id);
        rows.push({ l, enrolments: [e] });
      }
      yield rows;
    }
    return;
  }
  const filter = {
    createdFrom: dayStart(f.from),
    createdTo: dayEnd(f.to),
    ...(f.learnerIds ? { ids: f.learnerIds } : {}),
  };
  for await (const batch of pages((p) => r.learners.list(tenantId, filter, p))) {
    const rows: LearnerRow[] = [];
    for (const l of batch) {
      const enrolments = withEnrolments
        ? (await r.enrolments.list(tenantId, { learnerId: l.id }, { kind: 'offset', offset: 0, limit: 100 })).items
        : null;
      rows.push({ l, enrolments });
    }
    yield rows;
  }
}

/**
 * The rows a learners or enrolments CSV will hold, counted before it is written (its progress bar's end); null for
 * the other types and for learners selected through their enrolments (each once, not known without reading them).
 */
export async function expectedRows(
  r: ReadRepos,
  tenantId: string,
  type: string,
  f: ResolvedFilters,
): Promise<number | null> {
  const one = { kind: 'offset', offset: 0, limit: 1 } as const;
  if (type === 'learners' && !f.programmeCode && !f.status) {
    const filter = {
      createdFrom: dayStart(f.from),
      createdTo: dayEnd(f.to),
      ...(f.learnerIds ? { ids: f.learnerIds } : {}),
    };
    return (await r.learners.list(tenantId, filter, one)).total;
  }
  if (type === 'enrolments') {
    const filter = {
      programmeCode: f.programmeCode,
      status: statusOf(ENROLMENT_STATUSES, f.status),
      startFrom: f.from,
      startTo: f.to,
    };
    return (await r.enrolments.list(tenantId, filter, one)).total;
  }
  return null;
}

/** Enrolments by programme, status and start date (`from`/`to`), with their learners. */
export async function* enrolmentRows(
  r: ReadRepos,
  tenantId: string,
  f: ResolvedFilters,
): AsyncGenerator<EnrolmentRow[]> {
  const filter = {
    programmeCode: f.programmeCode,
    status: statusOf(ENROLMENT_STATUSES, f.status),
    startFrom: f.from,
    startTo: f.to,
  };
  for await (const batch of pages((p) => r.enrolments.list(tenantId, filter, p))) {
    const learners = await learnersOf(
      r,
      tenantId,
      batch.map((e) => e.learnerId),
    );
    yield batch.map((e) => ({ e, l: learners.get(e.learnerId) ?? null }));
  }
}

/** Assessments by assessment date (`from`/`to`), outcome (`status`: C or NYC) and programme. */
export async function* assessmentRows(
  r: ReadRepos,
  tenantId: string,
  f: ResolvedFilters,
): AsyncGenerator<AssessmentRow[]> {
  const filter = { from: f.from, to: f.to, outcome: statusOf(OUTCOMES, f.status) };
  for await (const batch of pages((p) => r.assessments.list(tenantId, filter, p))) {
    const kept = f.programmeId ? batch.filter((a) => a.programmeId === f.programmeId) : batch;
    const learners = await learnersOf(
      r,
      tenantId,
      kept.map((a) => a.learnerId),
    );
    yield kept.map((a) => ({ a, l: learners.get(a.learnerId) ?? null }));
  }
}

/** Evidence (current versions) by creation date, review status and programme (through its enrolment). */
export async function* evidenceRows(r: ReadRepos, tenantId: string, f: ResolvedFilters): AsyncGenerator<EvidenceRow[]> {
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

/** Every logbook entry of the tenant (the full export), with its learner. */
export async function* logbookRows(
  r: ReadRepos & Pick<LogbookRepos, 'logbookEntries'>,
  tenantId: string,
): AsyncGenerator<LogbookRow[]> {
  for await (const batch of pages((p) => r.logbookEntries.list(tenantId, {}, p))) {
    const learners = await learnersOf(
      r,
      tenantId,
      batch.map((e) => e.learnerId),
    );
    yield batch.map((e) => ({ e, l: learners.get(e.learnerId) ?? null }));
  }
}

/** The audit trail by time (`from`/`to`), newest first, each entry as `GET /audit` shows it. */
export async function* auditRows(r: ReadRepos, tenantId: string, f: ResolvedFilters): AsyncGenerator<AuditView[]> {
  const filter = { from: dayStart(f.from), to: dayEnd(f.to) };
  const actors = new DescribeActors({ repos: r });
  for await (const batch of pages((p) => r.auditTrail.list(tenantId, filter, p))) {
    const refs = await actors.describe(
      tenantId,
      batch.map((e) => e.actor),
    );
    yield batch.map((e) => auditView(e, refs));
  }
}
