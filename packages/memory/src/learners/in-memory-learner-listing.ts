import { pageInOrder, type Page, type PageRequest } from '@fundi/domain';
import {
  learnerSearch,
  wordMatches,
  type EnrolledFilter,
  type LearnerFilter,
  type LearnerOrder,
  type LearnerSnapshot,
} from '@fundi/domain/learners';
import type { EnrolmentSnapshot } from '@fundi/domain/training';
import { pageOf } from '../common/paging.js';

const ENROLMENT_KEYS = {
  programme: (e: EnrolmentSnapshot) => e.programmeCode,
  status: (e: EnrolmentSnapshot) => e.status,
  start: (e: EnrolmentSnapshot) => e.startDate,
} as const;

const meets = (e: EnrolmentSnapshot, f: EnrolledFilter) =>
  (!f.programmeCode || e.programmeCode === f.programmeCode) &&
  (!f.status || e.status === f.status) &&
  (!f.startFrom || e.startDate >= f.startFrom) &&
  (!f.startTo || e.startDate <= f.startTo);

/** Each learner's enrolments meeting `f`. */
function enrolledBy(
  enrolments: () => readonly EnrolmentSnapshot[],
  f: EnrolledFilter,
): Map<string, EnrolmentSnapshot[]> {
  const out = new Map<string, EnrolmentSnapshot[]>();
  for (const e of enrolments()) if (meets(e, f)) out.set(e.learnerId, [...(out.get(e.learnerId) ?? []), e]);
  return out;
}

/**
 * A page of the tenant's live learners (`live`) as filtered and sorted, the tenant's enrolments (`enrolments`) read
 * only for the enrolment filters and sorts, as the SQL repository answers it.
 */
export function listLearners(
  live: readonly LearnerSnapshot[],
  enrolments: () => readonly EnrolmentSnapshot[],
  f: LearnerFilter,
  page: PageRequest,
  order?: LearnerOrder,
): Page<LearnerSnapshot> {
  const matches = matching(live, enrolments, f);
  if (!order || page.kind === 'cursor') return pageOf(matches, page);
  const sign = order.descending ? -1 : 1;
  const by = order.by;
  const theirs = by === 'name' || by === 'idNumber' ? null : enrolledBy(enrolments, f.enrolled ?? {});
  // An enrolment field: the learner's first value in the sort's direction.
  const first = (l: LearnerSnapshot) => {
    const values = (theirs?.get(l.id) ?? []).map((e) => ENROLMENT_KEYS[by as keyof typeof ENROLMENT_KEYS](e)).sort();
    return (order.descending ? values.at(-1) : values[0]) ?? null;
  };
  const key = (l: LearnerSnapshot) =>
    by === 'name'
      ? `${l.lastName.toLowerCase()}\u0000${l.firstName.toLowerCase()}`
      : by === 'idNumber'
        ? l.idNumber
        : first(l);
  const sorted = matches.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    // Learners without the field come last either way; ties by id.
    if (ka !== kb) return ka == null ? 1 : kb == null ? -1 : ka < kb ? -sign : sign;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  return pageInOrder(sorted, page, (l) => l.id);
}
function matching(
  live: readonly LearnerSnapshot[],
  enrolments: () => readonly EnrolmentSnapshot[],
  f: LearnerFilter,
): LearnerSnapshot[] {
  const s = f.search ? learnerSearch(f.search) : null;
  const ids = f.ids ? new Set(f.ids) : null;
  const enrolled = f.enrolled ? enrolledBy(enrolments, f.enrolled) : null;
  const employer = f.employer?.toLowerCase();
  return live.filter(
    (l) =>
      (!f.employeeRef || l.employeeRef === f.employeeRef) &&
      (!employer || (l.employer ?? '').toLowerCase().includes(employer)) &&
      (!ids || ids.has(l.id)) &&
      (!enrolled || enrolled.has(l.id)) &&
      (!f.createdFrom || l.createdAt >= f.createdFrom) &&
      (!f.updatedFrom || l.updatedAt >= f.updatedFrom) &&
      (!f.updatedTo || l.updatedAt <= f.updatedTo) &&
      (!f.createdTo || l.createdAt <= f.createdTo) &&
      (!s || (s.mobile ? l.mobile === s.mobile : s.words.every((w) => wordMatches(w, l)))),
  );
}
