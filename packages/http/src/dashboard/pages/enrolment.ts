import type { SessionContext } from '@fundi/application/staff';
import type { DashboardDeps, PageRoutes } from '../dashboard-deps.js';
import { namesFor, person } from '../forms/person.js';
import { statusLabel } from '../forms/record-forms.js';
import { dateTime, html, when, type Html } from '../html.js';
import { page } from '../layout.js';
import { can, requireScope, zoneOf } from '../web.js';
import { historyTable } from './history.js';
import { statusHistory } from '../../training/enrolment-card.js';
import { statementsCard } from './statements-card.js';

const ALL = { kind: 'offset', offset: 0, limit: 100 } as const;
const RESULT = { C: 'competent (C)', NYC: 'not yet competent (NYC)' } as const;

const row = (label: string, v: Html | string | number | null | undefined) =>
  html`<tr><th scope="row">${label}</th><td>${v ?? '-'}</td></tr>`;

/**
 * One enrolment (docs/dashboard.md, "Pages"): the learner (name and ID number), the programme, the status
 * history, each module with its latest result and every assessment recorded, the evidence, the Statements of Results
 * and the audit history of the enrolment and of its assessments, evidence and statements. Each part shows when the
 * role may read it.
 */
export async function enrolmentRecord(
  d: DashboardDeps,
  s: SessionContext,
  id: string,
  notice?: { text: string; error?: boolean },
): Promise<Html> {
  requireScope(s, 'enrolments:read');
  const e = await d.training.getEnrolment.execute(s.actor, id);
  const [names, programme, history, assessments, evidence, statements] = await Promise.all([
    namesFor(d, s, [e.learnerId]),
    can(s, 'programmes:read') ? d.training.getProgramme.execute(s.actor, e.programmeId) : null,
    d.training.getEnrolmentHistory.execute(s.actor, e.id),
    can(s, 'assessments:read') ? d.training.listAssessments.execute(s.actor, { enrolmentId: e.id }, ALL) : null,
    can(s, 'evidence:read') ? d.evidence.listEvidence.execute(s.actor, { enrolmentId: e.id }, ALL) : null,
    d.statements ? d.statements.listStatements.execute(s.actor, e.learnerId, ALL) : null,
  ]);
  const mine = (statements?.items ?? []).filter((x) => x.enrolmentId === e.id);
  // The history of the enrolment and of what belongs to it: its assessments, evidence and statements.
  const entityIds = [
    e.id,
    ...(assessments?.items ?? []).map((a) => a.id),
    ...(evidence?.items ?? []).map((x) => x.id),
    ...mine.map((x) => x.id),
  ];
  const audit =
    can(s, 'audit:read') && d.audit
      ? await d.audit.list(s.actor, { entityIds }, { kind: 'offset', offset: 0, limit: 25 })
      : null;
  const zone = zoneOf(s);
  const name = names.get(e.learnerId)?.name;
  const title = `${programme?.name ?? e.programmeCode}${name ? `: ${name}` : ''}`;
  return page({
    title,
    current: '/dashboard/enrolments',
    session: s,
    notice,
    body: html`<div class="table" tabindex="0"><table><caption class="sr">The enrolment</caption><tbody>
${row('Learner', person(names, e.learnerId))}
${row('Programme', programme ? `${programme.name} (${programme.code})` : e.programmeCode)}
${when(programme, () => html`${row('Qualification', programme!.qualificationId)}${row('NQF level', programme!.nqfLevel)}`)}
${row('Status', html`<strong>${statusLabel(e.status)}</strong>`)}
${row('Start', e.startDate)}${row('Expected end', e.expectedEndDate)}${row('Achieved', e.achievementDate)}
${row('Modules competent', `${e.progress.competent} of ${e.progress.total}`)}
</tbody></table></div>
<h2>Status history</h2>${statusHistory(history.changes, true)}
<h2>Modules</h2><div class="table" tabindex="0"><table><thead><tr><th scope="col">Module</th><th scope="col">Kind</th><th scope="col">Latest result</th></tr></thead><tbody>
${e.progress.modules.map(
  (m) =>
    html`<tr><td>${m.code} ${m.name}</td><td>${m.kind}</td><td>${m.latestOutcome ? RESULT[m.latestOutcome] : 'not assessed'}${m.moderated ? ' (moderated)' : ''}</td></tr>`,
)}
</tbody></table></div>
${when(
  assessments,
  () =>
    html`<h2>Assessments</h2>${
      assessments!.items.length === 0
        ? html`<p class="muted">None recorded.</p>`
        : html`<div class="table" tabindex="0"><table><thead><tr><th scope="col">Date</th><th scope="col">Module</th><th scope="col">Type</th><th scope="col">Result</th><th scope="col">Assessor</th></tr></thead><tbody>
${assessments!.items.map((a) => html`<tr><td>${a.assessmentDate}</td><td>${a.moduleCode}</td><td>${a.assessmentType}</td><td>${a.effectiveOutcome}${a.moderation ? ` (moderated, was ${a.outcome})` : ''}</td><td>${a.assessorEmail ?? '-'}</td></tr>`)}
</tbody></table></div>`
    }`,
)}
${when(
  evidence,
  () =>
    html`<h2>Evidence</h2>${
      evidence!.items.length === 0
        ? html`<p class="muted">None uploaded.</p>`
        : html`<div class="table" tabindex="0"><table><thead><tr><th scope="col">File</th><th scope="col">Module</th><th scope="col">Kind</th><th scope="col">Version</th><th scope="col">Status</th><th scope="col">Uploaded</th></tr></thead><tbody>
${evidence!.items.map((x) => html`<tr><td><a href="/dashboard/evidence/${x.id}">${x.filename}</a></td><td>${x.moduleId}</td><td>${statusLabel(x.evidenceType)}</td><td>${x.version}</td><td>${statusLabel(x.status)}</td><td>${dateTime(x.createdAt, zone)}</td></tr>`)}
</tbody></table></div>`
    }`,
)}
${when(statements, () => html`<div class="card">${statementsCard(s, e.learnerId, e.id, mine, 'enrolment')}</div>`)}
${when(
  audit,
  () =>
    html`<h2>History</h2>${historyTable(audit!.items, zone)}${when(audit!.hasMore, () => html`<p><a href="/dashboard/audit?learnerId=${e.learnerId}">The learner's whole history</a></p>`)}`,
)}
<p>${when(can(s, 'learners:read'), () => html`<a href="/dashboard/learners/${e.learnerId}">The learner's record</a> · `)}<a href="/dashboard/enrolments">All enrolments</a></p>`,
  });
}

/** `/dashboard/enrolments/{id}`: one enrolment's page, linked from the learner's enrolment cards and the list. */
export function enrolmentRecordPages(r: PageRoutes, d: DashboardDeps): void {
  r.get('/dashboard/enrolments/:id', (ctx, s) => enrolmentRecord(d, s, ctx.params.id!));
}
