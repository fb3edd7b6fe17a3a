import type { LearnerView } from '@fundi/application/learners';
import type { SessionContext } from '@fundi/application/staff';
import type { EnrolmentView, StatusChangeView } from '@fundi/application/training';
import type { NlrdField } from '@fundi/domain/learners';
import { OPEN_STATUSES } from '@fundi/domain/training';
import type { DashboardDeps } from '../dashboard-deps.js';
import { dateTime, html, when, type Html } from '../html.js';
import { page } from '../layout.js';
import { can, requireScope, zoneOf } from '../web.js';
import { codeLabel } from '../forms/code-labels.js';
import { FIELD_LABELS } from '../forms/learner-form.js';
import { assessForm, enrolForm, statusForm, statusLabel, uploadForm } from '../forms/record-forms.js';
import { historyTable } from './history.js';
import { learnerNotifications } from './learner-notifications.js';
import { statementsCard } from './statements-card.js';

const ALL = { kind: 'offset', offset: 0, limit: 100 } as const;
const CODED: NlrdField[] = [
  'equityCode',
  'nationalityCode',
  'homeLanguageCode',
  'citizenResidentStatusCode',
  'socioeconomicStatusCode',
  'disabilityStatusCode',
  'disabilityRating',
  'immigrantStatus',
  'provinceCode',
];

const row = (label: string, v: string | null | undefined) =>
  html`<tr><th scope="row">${label}</th><td>${v ?? '-'}</td></tr>`;

function profile(l: LearnerView, zone: string): Html {
  const address = (a: LearnerView['homeAddress']) =>
    a ? [a.line1, a.line2, a.line3, a.postalCode].filter(Boolean).join(', ') : null;
  return html`<div class="table" tabindex="0"><table><caption class="sr">Identity and contact</caption><tbody>
${row('ID number', l.idNumber ?? (l.alternateId ? `${l.alternateId} (${statusLabel(l.alternateIdType ?? '')})` : null))}
${row('Date of birth', l.dateOfBirth)}${row('Gender', l.gender === 'F' ? 'female' : 'male')}${row('Citizenship', l.citizenship ? statusLabel(l.citizenship) : null)}
${row('Email', l.email)}${row('Mobile', l.mobile)}${row('Employer', l.employer)}${row('Employee reference', l.employeeRef)}
${CODED.map((f) => row(FIELD_LABELS[f]!, codeLabel(f, l[f])))}
${row('Home address', address(l.homeAddress))}${row('POPI Act agreed', l.popiActAgree === null ? null : l.popiActAgree ? `yes${l.popiActDate ? `, ${l.popiActDate}` : ''}` : 'no')}
${row('Registered', dateTime(l.createdAt, zone))}${row('Last changed', dateTime(l.updatedAt, zone))}
</tbody></table></div>`;
}

/** An enrolment's status history, oldest first: each move with its effective date and reason. */
export function statusHistory(changes: readonly StatusChangeView[], open = false): Html {
  return html`<details${open ? ' open' : ''}><summary>Status history (${changes.length})</summary><ul>${changes.map(
    (c) =>
      html`<li>${c.effectiveDate}: ${c.from ? `${statusLabel(c.from)} to ` : ''}${statusLabel(c.to)}${c.reason ? ` (${c.reason})` : ''}</li>`,
  )}</ul></details>`;
}

function enrolmentCard(
  s: SessionContext,
  l: LearnerView,
  e: EnrolmentView,
  name: string,
  today: string,
  changes: readonly StatusChangeView[],
  statements: Html | null,
): Html {
  const open = OPEN_STATUSES.includes(e.status);
  const assess = open && can(s, 'assessments:write');
  return html`<div class="card"><h3><a href="/dashboard/enrolments/${e.id}">${name}</a> <span class="muted">(${e.programmeCode})</span></h3>
<p><strong>${statusLabel(e.status)}</strong> · from ${e.startDate}${e.expectedEndDate ? ` to ${e.expectedEndDate}` : ''}${e.achievementDate ? ` · achieved ${e.achievementDate}` : ''} · ${e.progress.competent} of ${e.progress.total} modules competent</p>
<progress max="${e.progress.total}" value="${e.progress.competent}" aria-label="Modules competent in ${e.programmeCode}"></progress>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Module</th><th scope="col">Kind</th><th scope="col">Latest result</th>${assess ? html`<th scope="col">Record a result</th>` : null}</tr></thead><tbody>
${e.progress.modules.map(
  (m) =>
    html`<tr><td>${m.code} ${m.name}</td><td>${m.kind}</td><td>${m.latestOutcome === 'C' ? 'competent (C)' : m.latestOutcome === 'NYC' ? 'not yet competent (NYC)' : 'not assessed'}${m.moderated ? ' (moderated)' : ''}</td>${assess ? html`<td>${assessForm(s, l.id, e, m, today)}</td>` : null}</tr>`,
)}
</tbody></table></div>
${statusHistory(changes)}
${can(s, 'enrolments:write') ? statusForm(s, e, today) : null}${statements}</div>`;
}

/** A learner's record: identity, profile, enrolments with progress and the forms that act on them, assessments, evidence. */
export async function learnerRecord(
  d: DashboardDeps,
  s: SessionContext,
  id: string,
  notice?: { text: string; error?: boolean },
): Promise<Html> {
  requireScope(s, 'learners:read');
  const l = await d.learners.getLearner.execute(s.actor, id);
  const [enrolments, evidence, assessments, programmes, statements, changes, hours] = await Promise.all([
    can(s, 'enrolments:read') ? d.training.listEnrolments.execute(s.actor, { learnerId: l.id }, ALL) : null,
    can(s, 'evidence:read') ? d.evidence.listEvidence.execute(s.actor, { learnerId: l.id }, ALL) : null,
    can(s, 'assessments:read') ? d.training.listAssessments.execute(s.actor, { learnerId: l.id }, ALL) : null,
    can(s, 'programmes:read')
      ? d.training.listProgrammes.execute(s.actor, {}, { kind: 'offset', offset: 0, limit: 200 })
      : null,
    can(s, 'enrolments:read') && d.statements ? d.statements.listStatements.execute(s.actor, l.id, ALL) : null,
    can(s, 'audit:read') && d.audit
      ? d.audit.learnerHistory(s.actor, l.id, {}, { kind: 'offset', offset: 0, limit: 25 })
      : null,
    can(s, 'logbooks:read') ? d.logbooks.progress.execute(s.actor, l.id) : null,
  ]);
  const notifications = await learnerNotifications(d, s, l.id);
  const names = new Map((programmes?.items ?? []).map((p) => [p.id, p.name]));
  const histories = await Promise.all(
    (enrolments?.items ?? []).map((e) => d.training.getEnrolmentHistory.execute(s.actor, e.id).then((h) => h.changes)),
  );
  const today = d.now().toISOString().slice(0, 10);
  const openModules = (enrolments?.items ?? [])
    .filter((e) => OPEN_STATUSES.includes(e.status))
    .flatMap((e) =>
      e.progress.modules.map((m) => ({ code: m.code, label: `${m.code} ${m.name} (${e.programmeCode})` })),
    );
  const active = (programmes?.items ?? []).filter((p) => p.status === 'active');
  const name = `${l.firstName} ${l.lastName}`;
  return page({
    title: name,
    current: '/dashboard/learners',
    session: s,
    notice,
    body: html`${when(can(s, 'learners:write'), () => html`<p><a class="button" href="/dashboard/learners/${l.id}/edit">Edit ${name}</a></p>`)}
${profile(l, zoneOf(s))}
${when(
  enrolments,
  () =>
    html`<h2>Enrolments</h2>${enrolments!.items.map((e, i) => enrolmentCard(s, l, e, names.get(e.programmeId) ?? e.programmeCode, today, histories[i]!, statements ? statementsCard(s, l.id, e.id, statements.items) : null))}${when(enrolments!.items.length === 0, () => html`<p class="muted">No enrolments.</p>`)}`,
)}
${when(can(s, 'enrolments:write') && active.length > 0, () => enrolForm(s, l.id, active, today))}
${when(
  hours?.length,
  () => html`<h2>Workplace hours</h2><div class="table" tabindex="0"><table><thead><tr><th scope="col">Module</th><th scope="col">Logged</th><th scope="col">Signed</th><th scope="col">Required</th><th scope="col">Ready for assessment</th></tr></thead><tbody>
${hours!.map((h) => html`<tr><td>${h.moduleCode}</td><td>${h.logged}</td><td>${h.signed}</td><td>${h.required ?? '-'}</td><td>${h.ready ? 'yes' : 'no'}</td></tr>`)}
</tbody></table></div>`,
)}
${when(
  assessments,
  () => html`<h2>Assessments</h2><div class="table" tabindex="0"><table><thead><tr><th scope="col">Date</th><th scope="col">Programme</th><th scope="col">Module</th><th scope="col">Type</th><th scope="col">Result</th><th scope="col">Assessor</th></tr></thead><tbody>
${assessments!.items.map((a) => html`<tr><td>${a.assessmentDate}</td><td>${a.programmeCode}</td><td>${a.moduleCode}</td><td>${a.assessmentType}</td><td>${a.effectiveOutcome}${a.moderation ? ` (moderated, was ${a.outcome})` : ''}</td><td>${a.assessorEmail ?? '-'}</td></tr>`)}
</tbody></table></div>`,
)}
${when(
  evidence,
  () => html`<h2>Evidence</h2><div class="table" tabindex="0"><table><thead><tr><th scope="col">File</th><th scope="col">Module</th><th scope="col">Kind</th><th scope="col">Version</th><th scope="col">Status</th><th scope="col">Uploaded</th></tr></thead><tbody>
${evidence!.items.map((e) => html`<tr><td><a href="/dashboard/evidence/${e.id}">${e.filename}</a></td><td>${e.moduleId}</td><td>${statusLabel(e.evidenceType)}</td><td>${e.version}</td><td>${statusLabel(e.status)}</td><td>${dateTime(e.createdAt, zoneOf(s))}</td></tr>`)}
</tbody></table></div>`,
)}
${when(can(s, 'evidence:write') && openModules.length > 0, () => uploadForm(s, l.id, openModules))}
${notifications}
${when(
  changes,
  () =>
    html`<h2>History</h2>${historyTable(changes!.items, zoneOf(s))}${when(changes!.hasMore, () => html`<p><a href="/dashboard/audit?learnerId=${l.id}">The whole history</a></p>`)}`,
)}`,
  });
}
