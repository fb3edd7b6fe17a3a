import type { SessionContext, StatementView } from '@fundi/application';
import { isDomainError } from '@fundi/domain';
import type { DashboardDeps, PageRoutes } from '../dashboard-deps.js';
import { dateTime, html, when, type Html } from '../html.js';
import { csrf } from '../layout.js';
import { can, field, requireScope } from '../web.js';
import { describe } from './api-keys.js';
import { learnerRecord } from './learner-record.js';

const OUTCOME = { completed: 'completed', competent: 'competent', not_yet_competent: 'not yet competent' } as const;

/** An enrolment's statements with their actions, shown in its card on the learner's page. */
export function statementsCard(
  s: SessionContext,
  learnerId: string,
  enrolmentId: string,
  all: readonly StatementView[],
): Html {
  const mine = all.filter((x) => x.enrolmentId === enrolmentId);
  const admin = s.user.role === 'admin';
  return html`<h4>Statements of Results</h4>
${when(mine.length === 0, () => html`<p class="muted">None issued.</p>`)}
${mine.map(
  (
    x,
  ) => html`<div class="inline"><p>${dateTime(x.issuedAt)}: ${OUTCOME[x.outcome]}, code <code>${x.verificationCode}</code>, ${
    x.status === 'revoked'
      ? html`<strong>revoked</strong> (${x.revokeReason})`
      : html`<a href="/dashboard/learners/${learnerId}/statements/${x.id}/download">Download the PDF</a>`
  } · <a href="${x.verifyUrl}">Verification page</a></p>
${when(
  admin && x.status === 'issued' && can(s, 'enrolments:write'),
  () => html`<form class="inline" method="post" action="/dashboard/learners/${learnerId}/statements/${x.id}/revoke" data-confirm="Revoke this statement? Its verification page will say so.">${csrf(s)}
<div><label for="reason-${x.id}">Reason</label><input id="reason-${x.id}" name="reason" required maxlength="1000"></div><button class="danger" type="submit">Revoke</button></form>`,
)}</div>`,
)}
${when(
  can(s, 'enrolments:write'),
  () =>
    html`<form method="post" action="/dashboard/learners/${learnerId}/statements">${csrf(s)}<input type="hidden" name="enrolmentId" value="${enrolmentId}"><button type="submit">Issue a Statement of Results</button></form>`,
)}`;
}

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
