import type { SessionContext, StatementView } from '@fundi/application';
import { isDomainError } from '@fundi/domain';
import type { DashboardDeps, PageRoutes } from '../dashboard-deps.js';
import { dateTime, html, when, type Html } from '../html.js';
import { csrf } from '../layout.js';
import { can, field, requireScope } from '../web.js';
import { describe } from './api-keys.js';
import { enrolmentRecord } from './enrolment.js';
import { learnerRecord } from './learner-record.js';

const OUTCOME = { completed: 'completed', competent: 'competent', not_yet_competent: 'not yet competent' } as const;

/**
 * An enrolment's statements with their actions, shown in its card on the learner's page and on the enrolment's
 * page (`on: 'enrolment'`: its forms come back there).
 */
export function statementsCard(
  s: SessionContext,
  learnerId: string,
  enrolmentId: string,
  all: readonly StatementView[],
  on: 'learner' | 'enrolment' = 'learner',
): Html {
  const mine = all.filter((x) => x.enrolmentId === enrolmentId);
  const admin = s.user.role === 'admin';
  const back = on === 'enrolment' ? html`<input type="hidden" name="back" value="enrolment">` : null;
  return html`${on === 'enrolment' ? html`<h2>Statements of Results</h2>` : html`<h4>Statements of Results</h4>`}
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
  () => html`<form class="inline" method="post" action="/dashboard/learners/${learnerId}/statements/${x.id}/revoke" data-confirm="Revoke this statement? Its verification page will say so.">${csrf(s)}${back}
<div><label for="reason-${x.id}">Reason</label><input id="reason-${x.id}" name="reason" required maxlength="1000"></div><button class="danger" type="submit">Revoke</button></form>`,
)}</div>`,
)}
${when(
  can(s, 'enrolments:write'),
  () =>
    html`<form method="post" action="/dashboard/learners/${learnerId}/statements">${csrf(s)}<input type="hidden" name="enrolmentId" value="${enrolmentId}">${back}<button type="submit">Issue a Statement of Results</button></form>`,
)}`;
}

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
      await d.statements!.issue(s.actor, ctx.params.id!, enrolmentId, ctx.origin);
    } catch (e) {
      return refused(s, ctx.params.id!, from, e);
    }
    return back(ctx.params.id!, from);
  });

  r.post('/dashboard/learners/:id/statements/:statementId/revoke', async (ctx, s, form) => {
    requireScope(s, 'enrolments:write');
    const statement =
      field(form, 'back') === 'enrolment'
        ? await d.statements!.get(s.actor, ctx.params.id!, ctx.params.statementId!)
        : null;
    const from = statement ? toEnrolment(form, statement.enrolmentId) : null;
    try {
      await d.statements!.revoke(s.actor, ctx.params.id!, ctx.params.statementId!, field(form, 'reason') ?? '');
    } catch (e) {
      return refused(s, ctx.params.id!, from, e);
    }
    return back(ctx.params.id!, from);
  });

  // The PDF through the API's signed URL (same origin, one hour), issued and audited like the API's.
  r.get('/dashboard/learners/:id/statements/:statementId/download', async (ctx, s) => {
    requireScope(s, 'enrolments:read');
    const grant = await d.statements!.downloadUrl(s.actor, ctx.params.id!, ctx.params.statementId!, ctx.origin);
    return { redirect: grant.url };
  });
}
