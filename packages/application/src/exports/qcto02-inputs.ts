import type { LearnerSnapshot } from '@fundi/domain/learners';
import {
  ENROLMENT_STATUSES,
  type AssessmentSnapshot,
  type EnrolmentSnapshot,
  type ProgrammeSnapshot,
} from '@fundi/domain/training';
import type { Qcto02Input } from '@fundi/domain/exports';
import { learnersOf } from '../learners/learner-columns.js';
import { pages, statusOf, type ReadRepos } from './export-reading.js';
import type { ResolvedFilters } from './export-type.js';

/** Enrolment ids per read of their assessments (a bound on one statement's parameters). */
const ENROLMENTS_PER_READ = 1000;

/** One learner of a QCTO02 file with every selected enrolment (its programme and every result). */
export interface Qcto02Learner {
  learner: LearnerSnapshot;
  inputs: Qcto02Input[];
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const by = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = by.get(k);
    if (list) list.push(item);
    else by.set(k, [item]);
  }
  return by;
}

/**
 * The learners of a QCTO02 file, a page at a time, set-based (docs/api.md, "Regulator files"): per page of the
 * selected enrolments (by id), one read of the page's new learners, one of their selected enrolments, one of the
 * programmes not met before and one of the enrolments' assessments per `ENROLMENTS_PER_READ`, instead of a list
 * per learner and per enrolment. Learners come in the order of their first selected enrolment, each once, with
 * their selected enrolments by id and each enrolment's results by id: what a list per learner and per enrolment
 * gave, so the records and findings are the same. Erased learners and enrolments of a deleted programme are
 * left out, as before.
 */
export async function* qcto02Learners(
  r: ReadRepos,
  tenantId: string,
  f: ResolvedFilters,
): AsyncGenerator<Qcto02Learner[]> {
  const filter = {
    programmeCode: f.programmeCode,
    status: statusOf(ENROLMENT_STATUSES, f.status),
    startFrom: f.from,
    startTo: f.to,
  };
  const seen = new Set<string>();
  const programmes = new Map<string, ProgrammeSnapshot | null>();
  for await (const batch of pages((p) => r.enrolments.list(tenantId, filter, p))) {
    const fresh = [...new Set(batch.map((e) => e.learnerId))].filter((id) => !seen.has(id));
    const learners = await learnersOf(r, tenantId, fresh);
    const ids = fresh.filter((id) => learners.has(id));
    for (const id of ids) seen.add(id);
    const enrolments = await r.enrolments.ofLearners(tenantId, filter, ids);
    await readProgrammes(r, tenantId, enrolments, programmes);
    const kept = enrolments.filter((e) => programmes.get(e.programmeId));
    const results = groupBy(await assessmentsOf(r, tenantId, kept), (a) => a.enrolmentId);
    const byLearner = groupBy(kept, (e) => e.learnerId);
    yield ids.map((id) => {
      const learner = learners.get(id)!;
      const inputs = (byLearner.get(id) ?? []).map((enrolment) => ({
        learner,
        enrolment,
        programme: programmes.get(enrolment.programmeId)!,
        assessments: results.get(enrolment.id) ?? [],
      }));
      return { learner, inputs };
    });
  }
}

/** Reads the programmes of `enrolments` not in `known` into it (null for one that no longer exists). */
async function readProgrammes(
  r: ReadRepos,
  tenantId: string,
  enrolments: readonly EnrolmentSnapshot[],
  known: Map<string, ProgrammeSnapshot | null>,
): Promise<void> {
  const missing = [...new Set(enrolments.map((e) => e.programmeId))].filter((id) => !known.has(id));
  if (!missing.length) return;
  const found = await r.programmes.findByIds(tenantId, missing);
  for (const id of missing) known.set(id, null);
  for (const p of found) known.set(p.id, p);
}

async function assessmentsOf(
  r: ReadRepos,
  tenantId: string,
  enrolments: readonly EnrolmentSnapshot[],
): Promise<AssessmentSnapshot[]> {
  const out: AssessmentSnapshot[] = [];
  for (let i = 0; i < enrolments.length; i += ENROLMENTS_PER_READ) {
    const part = enrolments.slice(i, i + ENROLMENTS_PER_READ).map((e) => e.id);
    out.push(...(await r.assessments.ofEnrolments(tenantId, part)));
  }
  return out;
}
