import type { SessionContext } from '@fundi/application/staff';
import type { StatementView } from '@fundi/application/statements';
import { dateTime, html, when, type Html } from '../dashboard/html.js';
import { csrf } from '../dashboard/layout.js';
import { can } from '../dashboard/web.js';

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
