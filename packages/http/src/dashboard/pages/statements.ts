import type { SessionContext } from '@fundi/application';
import { isDomainError } from '@fundi/domain';
import type { DashboardDeps, PageRoutes } from '../dashboard-deps.js';
import { field, requireScope } from '../web.js';
import { describe } from './api-keys.js';
import { learnerRecord } from './learner-record.js';

/** Issue, download and revoke from the learner's enrolments (docs/dashboard.md, "Statements of Results"). */
export function statementPages(r: PageRoutes, d: DashboardDeps): void {
  const back = (id: string) => ({ redirect: `/dashboard/learners/${id}` }) as const;
  const refused = (s: SessionContext, id: string, e: unknown) =>
    isDomainError(e) && (e.kind === 'conflict' || e.kind === 'invalid')
      ? learnerRecord(d, s, id, { text: describe(e), error: true })
      : Promise.reject(e);

  r.post('/dashboard/learners/:id/statements', async (ctx, s, form) => {
    requireScope(s, 'enrolments:write');
    try {
      await d.statements!.issue(s.actor, ctx.params.id!, field(form, 'enrolmentId') ?? '', ctx.origin);
    } catch (e) {
      return refused(s, ctx.params.id!, e);
    }
    return back(ctx.params.id!);
  });

  r.post('/dashboard/learners/:id/statements/:statementId/revoke', async (ctx, s, form) => {
    requireScope(s, 'enrolments:write');
    try {
      await d.statements!.revoke(s.actor, ctx.params.id!, ctx.params.statementId!, field(form, 'reason') ?? '');
    } catch (e) {
      return refused(s, ctx.params.id!, e);
    }
    return back(ctx.params.id!);
  });

  // The PDF through the API's signed URL (same origin, one hour), issued and audited like the API's.
  r.get('/dashboard/learners/:id/statements/:statementId/download', async (ctx, s) => {
    requireScope(s, 'enrolments:read');
    const grant = await d.statements!.downloadUrl(s.actor, ctx.params.id!, ctx.params.statementId!, ctx.origin);
    return { redirect: grant.url };
  });
}
