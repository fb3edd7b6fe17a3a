import type { SessionContext } from '@fundi/application/staff';
import type { EnrolmentView } from '@fundi/application/training';
import { ENROLMENT_MOVES, type ModuleProgress } from '@fundi/domain/training';
import { html, type Html } from '../dashboard/html.js';
import { csrf } from '../dashboard/layout.js';

export const statusLabel = (s: string) => s.replace(/_/g, ' ');

/** Enrol the learner in an active programme (the API's enrol use case). */
export function enrolForm(
  s: SessionContext,
  learnerId: string,
  programmes: { code: string; name: string }[],
  today: string,
): Html {
  return html`<form class="card" method="post" action="/dashboard/learners/${learnerId}/enrol">${csrf(s)}<h2>Enrol in a programme</h2>
<div class="grid2"><div><label for="enrol-programme">Programme</label><select id="enrol-programme" name="programmeCode" required>${programmes.map((p) => html`<option value="${p.code}">${p.name} (${p.code})</option>`)}</select></div>
<div><label for="enrol-start">Start date</label><input id="enrol-start" name="startDate" type="date" value="${today}" required></div>
<div><label for="enrol-end">Expected end date (optional)</label><input id="enrol-end" name="expectedEndDate" type="date"></div></div>
<button type="submit">Enrol</button></form>`;
}

/**
 * Move an enrolment (the API's status change): only the moves its status allows, with the reason, the effective
 * date and, on completion, the certificate number. Withdrawal asks for confirmation (app.js) and looks different.
 */
export function statusForm(s: SessionContext, e: EnrolmentView, today: string): Html | null {
  const moves = ENROLMENT_MOVES[e.status];
  if (moves.length === 0) return null;
  const p = `st-${e.id}`;
  return html`<form method="post" action="/dashboard/enrolments/${e.id}/status" data-confirm-when="withdrawn" class="subform">${csrf(s)}
<h4>Change status</h4><div class="grid2"><div><label for="${p}-to">New status</label><select id="${p}-to" name="status">${moves.map((m) => html`<option value="${m}">${statusLabel(m)}</option>`)}</select></div>
<div><label for="${p}-date">Effective date</label><input id="${p}-date" name="effectiveDate" type="date" value="${today}"></div>
<div><label for="${p}-reason">Reason (optional)</label><input id="${p}-reason" name="reason" maxlength="1000"></div>
${moves.includes('completed') ? html`<div><label for="${p}-cert">Certificate number (with completed, optional)</label><input id="${p}-cert" name="certificateNumber" maxlength="100"></div>` : null}</div>
<button type="submit">Change status</button></form>`;
}

/** Record C or NYC for one module of an open enrolment (the API's record use case, the user as assessor). */
export function assessForm(
  s: SessionContext,
  learnerId: string,
  e: EnrolmentView,
  m: ModuleProgress,
  today: string,
): Html {
  const p = `as-${e.id}-${m.code}`;
  return html`<form method="post" action="/dashboard/learners/${learnerId}/assess" class="inline tight">${csrf(s)}
<input type="hidden" name="enrolmentId" value="${e.id}"><input type="hidden" name="moduleCode" value="${m.code}">
<div><label for="${p}-date">Date <span class="sr">for ${m.code}</span></label><input id="${p}-date" name="assessmentDate" type="date" value="${today}"></div>
<div><label for="${p}-type">Type <span class="sr">for ${m.code}</span></label><select id="${p}-type" name="assessmentType"><option value="summative">summative</option><option value="formative">formative</option></select></div>
<button type="submit" name="outcome" value="C" aria-label="C, competent: ${m.code}">C</button>
<button type="submit" name="outcome" value="NYC" class="secondary" aria-label="NYC, not yet competent: ${m.code}">NYC</button></form>`;
}
