import type { SessionContext } from '@fundi/application/staff';
import { isDomainError } from '@fundi/domain';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { field, requireScope } from '../dashboard/web.js';
import { describe } from '../tenants/api-key-pages.js';
import { enrolmentRecord } from '../training/enrolment-page.js';
import { learnerRecord } from '../learners/learner-record.js';

/** Issue, download and revoke from the learner's enrolments (docs/dashboard.md, "Statements of Results"). */
export function statementPages(r: PageRoutes, d: DashboardDeps): void {
  // Back to the page the form was on: the learner's, or the enrolment's when it says so (`back=enrolment`).
  const toEnrolment = (form: URLSearchParams, enrolmentId: string | null) =>
    field(form, 'back') === 'enrolment' && enrolmentId ? enrolmentId : null;
  const back = (id: string, enrolmentId: string | null) =>
    ({
      redirect: enrolmentId
        ? `/dashboard/enrolments/${encodeURIComponent(enrolmentId)}`
        : `/dashboard/learners/${encodeURIComponent(id)}`,
    }) as const;
  const refused = (s: SessionContext, id: string, enrolmentId: string | null, e: unknown) => {
    if (!isDomainError(e) || (e.kind !== 'conflict' && e.kind !== 'invalid')) return Promise.reject(e);
    const notice = { text: describe(e), error: true };
    return enrolmentId ? enrolmentRecord(d, s, enrolmentId, notice) : learnerRecord(d, s, id, notice);
  };

  r.post('/dashboard/learners/:id/statements', async (ctx, s, form) => {
    requireScope(s, 'enrolments:write');
    const enrolmentId = field(form, 'enrolmentId') ?? '';
    const from = toEnrolment(form, enrolmentId);
    try {
      await d.statements!.issueStatement.execute(s.actor, ctx.params.id!, enrolmentId, ctx.origin);
    } catch (e) {
      return refused(s, ctx.params.id!, from, e);
    }
    return back(ctx.params.id!, from);
  });

  r.post('/dashboard/learners/:id/statements/:statementId/revoke', async (ctx, s, form) => {
    requireScope(s, 'enrolments:write');
    const statement =
      field(form, 'back') === 'enrolment'
        ? await d.statements!.getStatement.execute(s.actor, ctx.params.id!, ctx.params.statementId!)
        : null;
    const from = statement ? toEnrolment(form, statement.enrolmentId) : null;
    try {
      await d.statements!.revokeStatement.execute(
        s.actor,
        ctx.params.id!,
        ctx.params.statementId!,
        field(form, 'reason') ?? '',
      );
    } catch (e) {
      return refused(s, ctx.params.id!, from, e);
    }
    return back(ctx.params.id!, from);
  });

  // The PDF through the API's signed URL (same origin, one hour), issued and audited like the API's.
  r.get('/dashboard/learners/:id/statements/:statementId/download', async (ctx, s) => {
    requireScope(s, 'enrolments:read');
    const grant = await d.statements!.statementDownloadUrl.execute(
      s.actor,
      ctx.params.id!,
      ctx.params.statementId!,
      ctx.origin,
    );
    return { redirect: grant.url };
  });
}
