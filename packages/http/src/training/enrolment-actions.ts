import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { field, requireScope } from '../dashboard/web.js';
import { refusal } from '../dashboard/forms/refusal.js';
import { learnerRecord } from '../learners/learner-record.js';

/**
 * What the learner's record's enrolment forms do: enrol, move an enrolment, record a result. Each calls the API's
 * use case; a refusal (the modules still missing before completion, a date before the start) is shown in words on
 * the learner's page, with nothing written.
 */
export function learnerActionPages(r: PageRoutes, d: DashboardDeps): void {
  const back = (id: string, text?: string) => ({
    redirect: `/dashboard/learners/${id}${text ? `?done=${encodeURIComponent(text)}` : ''}`,
  });

  r.post('/dashboard/learners/:id/enrol', async (ctx, s, form) => {
    requireScope(s, 'enrolments:write');
    const id = ctx.params.id!;
    try {
      await d.training.enrolLearner.execute(s.actor, {
        learnerId: id,
        programmeCode: field(form, 'programmeCode'),
        startDate: field(form, 'startDate'),
        expectedEndDate: field(form, 'expectedEndDate'),
      });
    } catch (e) {
      ctx.status = 400;
      return learnerRecord(d, s, id, { text: refusal(e), error: true });
    }
    return back(id, 'enrolled');
  });

  r.post('/dashboard/enrolments/:id/status', async (ctx, s, form) => {
    requireScope(s, 'enrolments:write');
    const current = await d.training.getEnrolment.execute(s.actor, ctx.params.id!);
    try {
      await d.training.changeEnrolmentStatus.execute(s.actor, current.id, {
        status: field(form, 'status'),
        reason: field(form, 'reason'),
        effectiveDate: field(form, 'effectiveDate'),
        certificateNumber: field(form, 'status') === 'completed' ? field(form, 'certificateNumber') : undefined,
      });
    } catch (e) {
      ctx.status = 400;
      return learnerRecord(d, s, current.learnerId, { text: refusal(e), error: true });
    }
    return back(current.learnerId, 'status');
  });

  r.post('/dashboard/learners/:id/assess', async (ctx, s, form) => {
    requireScope(s, 'assessments:write');
    const id = ctx.params.id!;
    try {
      await d.training.recordAssessment.execute(s.actor, {
        learnerId: id,
        enrolmentId: field(form, 'enrolmentId'),
        moduleCode: field(form, 'moduleCode'),
        outcome: field(form, 'outcome'),
        assessmentType: field(form, 'assessmentType'),
        assessmentDate: field(form, 'assessmentDate'),
        assessorEmail: s.user.email,
      });
    } catch (e) {
      ctx.status = 400;
      return learnerRecord(d, s, id, { text: refusal(e), error: true });
    }
    return back(id, 'assessed');
  });
}
