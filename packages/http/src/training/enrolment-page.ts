import type { SessionContext } from '@fundi/application/staff';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { namesFor, person } from '../dashboard/forms/person.js';
import { statusLabel } from './record-forms.js';
import { html, when, type Html } from '../dashboard/html.js';
import { page } from '../dashboard/layout.js';
import { sectionsIn } from '../dashboard/page-sections.js';
import { can, requireScope } from '../dashboard/web.js';
import { statusHistory } from './enrolment-card.js';
import type { EnrolmentRecordAt } from './enrolment-record-slots.js';
import { enrolmentAssessments } from './enrolment-record-sections.js';

const RESULT = { C: 'competent (C)', NYC: 'not yet competent (NYC)' } as const;

const row = (label: string, v: Html | string | number | null | undefined) =>
  html`<tr><th scope="row">${label}</th><td>${v ?? '-'}</td></tr>`;

/**
 * One enrolment (docs/dashboard.md, "Pages"): the learner (name and ID number), the programme, the status
 * history, each module with its latest result and every assessment recorded, then the capabilities' sections
 * ("Shared pages": the evidence, the Statements of Results, the history of the enrolment and of what belongs to it).
 * Each part shows when the role may read it.
 */
export async function enrolmentRecord(
  d: DashboardDeps,
  s: SessionContext,
  id: string,
  notice?: { text: string; error?: boolean },
): Promise<Html> {
  requireScope(s, 'enrolments:read');
  const e = await d.training.getEnrolment.execute(s.actor, id);
  const shared = new Map<string, Promise<unknown>>();
  const at: EnrolmentRecordAt = {
    enrolment: e,
    once<T>(key: string, load: () => Promise<T>): Promise<T> {
      if (!shared.has(key)) shared.set(key, load());
      // The sections sharing a key read the same thing: the first to ask made it with this type.
      return shared.get(key) as Promise<T>;
    },
  };
  const [names, programme, history, assessments, sections] = await Promise.all([
    namesFor(d, s, [e.learnerId]),
    can(s, 'programmes:read') ? d.training.getProgramme.execute(s.actor, e.programmeId) : null,
    d.training.getEnrolmentHistory.execute(s.actor, e.id),
    can(s, 'assessments:read') ? enrolmentAssessments(d, s, at) : null,
    sectionsIn(d, s, 'enrolmentRecord', at),
  ]);
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
${sections.map((x) => html`${x}\n`)}<p>${when(can(s, 'learners:read'), () => html`<a href="/dashboard/learners/${e.learnerId}">The learner's record</a> · `)}<a href="/dashboard/enrolments">All enrolments</a></p>`,
  });
}

/** `/dashboard/enrolments/{id}`: one enrolment's page, linked from the learner's enrolment cards and the list. */
export function enrolmentRecordPages(r: PageRoutes, d: DashboardDeps): void {
  r.get('/dashboard/enrolments/:id', (ctx, s) => enrolmentRecord(d, s, ctx.params.id!));
}
