import type { SessionContext } from '@fundi/application/staff';
import type { EnrolmentView, StatusChangeView } from '@fundi/application/training';
import { OPEN_STATUSES } from '@fundi/domain/training';
import { html, type Html } from '../dashboard/html.js';
import { can } from '../dashboard/web.js';
import { assessForm, statusForm, statusLabel } from './record-forms.js';

/** An enrolment's status history, oldest first: each move with its effective date and reason. */
export function statusHistory(changes: readonly StatusChangeView[], open = false): Html {
  return html`<details${open ? ' open' : ''}><summary>Status history (${changes.length})</summary><ul>${changes.map(
    (c) =>
      html`<li>${c.effectiveDate}: ${c.from ? `${statusLabel(c.from)} to ` : ''}${statusLabel(c.to)}${c.reason ? ` (${c.reason})` : ''}</li>`,
  )}</ul></details>`;
}

/**
 * An enrolment's card on the learner's record: its progress per module with the forms that record results, its
 * status history and form, and what other capabilities show in it (`parts`).
 */
export function enrolmentCard(
  s: SessionContext,
  learnerId: string,
  e: EnrolmentView,
  name: string,
  today: string,
  changes: readonly StatusChangeView[],
  parts: readonly (Html | null)[],
): Html {
  const open = OPEN_STATUSES.includes(e.status);
  const assess = open && can(s, 'assessments:write');
  return html`<div class="card"><h3><a href="/dashboard/enrolments/${e.id}">${name}</a> <span class="muted">(${e.programmeCode})</span></h3>
<p><strong>${statusLabel(e.status)}</strong> · from ${e.startDate}${e.expectedEndDate ? ` to ${e.expectedEndDate}` : ''}${e.achievementDate ? ` · achieved ${e.achievementDate}` : ''} · ${e.progress.competent} of ${e.progress.total} modules competent</p>
<progress max="${e.progress.total}" value="${e.progress.competent}" aria-label="Modules competent in ${e.programmeCode}"></progress>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Module</th><th scope="col">Kind</th><th scope="col">Latest result</th>${assess ? html`<th scope="col">Record a result</th>` : null}</tr></thead><tbody>
${e.progress.modules.map(
  (m) =>
    html`<tr><td>${m.code} ${m.name}</td><td>${m.kind}</td><td>${m.latestOutcome === 'C' ? 'competent (C)' : m.latestOutcome === 'NYC' ? 'not yet competent (NYC)' : 'not assessed'}${m.moderated ? ' (moderated)' : ''}</td>${assess ? html`<td>${assessForm(s, learnerId, e, m, today)}</td>` : null}</tr>`,
)}
</tbody></table></div>
${statusHistory(changes)}
${can(s, 'enrolments:write') ? statusForm(s, e, today) : null}${parts}</div>`;
}
