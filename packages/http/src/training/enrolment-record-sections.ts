import type { SessionContext } from '@fundi/application/staff';
import type { DashboardDeps, PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import type { EnrolmentRecordAt } from './enrolment-record-slots.js';

const ALL = { kind: 'offset', offset: 0, limit: 100 } as const;

/** The assessments recorded on the enrolment, read once for its page and its history. */
export const enrolmentAssessments = (
  d: DashboardDeps,
  s: SessionContext,
  at: EnrolmentRecordAt,
): ReturnType<DashboardDeps['training']['listAssessments']['execute']> =>
  at.once('assessments', () => d.training.listAssessments.execute(s.actor, { enrolmentId: at.enrolment.id }, ALL));

/** The enrolment's history covers its assessments. */
export const assessmentIds: PageSection<SlotOf<'enrolmentRecordIds'>> = {
  order: 10,
  scope: 'assessments:read',
  async render(d, s, at) {
    return (await enrolmentAssessments(d, s, at)).items.map((a) => a.id);
  },
};
