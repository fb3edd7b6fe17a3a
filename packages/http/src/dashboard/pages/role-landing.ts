import type { SessionContext } from '@fundi/application/staff';
import type { DashboardDeps } from '../dashboard-deps.js';
import { html, type Html } from '../html.js';
import { age } from '../forms/age.js';
import { namesFor, person } from '../forms/person.js';

const FIRST = { kind: 'offset', offset: 0, limit: 10 } as const;

/** An assessor's work on landing: evidence awaiting review, oldest first, with how long each has waited. */
async function assessorQueue(d: DashboardDeps, s: SessionContext): Promise<Html> {
  const queue = await d.evidence.listEvidence.execute(s.actor, { status: 'submitted' }, FIRST);
  const names = await namesFor(
    d,
    s,
    queue.items.map((e) => e.learnerId),
  );
  const now = d.now().getTime();
  return html`<h2>Your review queue (${queue.total}, oldest first)</h2>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Waiting</th><th scope="col">File</th><th scope="col">Learner</th><th scope="col">Module</th></tr></thead><tbody>
${queue.items.map((e) => html`<tr><td>${age(now, e.createdAt)}</td><td><a href="/dashboard/evidence/${e.id}">${e.filename}</a></td><td>${person(names, e.learnerId)}</td><td>${e.moduleId}</td></tr>`)}
</tbody></table></div><p><a href="/dashboard/evidence">The whole queue</a> · <a href="/dashboard/assessments">Record results</a> (modules without a result)</p>`;
}

/**
 * A facilitator's work on landing: their learners. Learners are not assigned to staff users, so these are the
 * learners in training (enrolments in progress, latest started first), as the closest to "their learners".
 */
async function learnersInTraining(d: DashboardDeps, s: SessionContext): Promise<Html> {
  const open = await d.training.listLearnerRoster.execute(
    s.actor,
    { status: 'in_progress', sort: 'start', descending: true },
    { offset: 0, limit: 10 },
  );
  return html`<h2>Your learners: in training (${open.total})</h2>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Learner</th><th scope="col">ID number</th><th scope="col">Programme</th><th scope="col">Started</th></tr></thead><tbody>
${open.items.map(({ learner: l, enrolments }) => html`<tr><td><a href="/dashboard/learners/${l.id}">${l.firstName} ${l.lastName}</a></td><td>${l.idNumber ?? l.alternateId ?? ''}</td><td>${enrolments.map((e) => e.programmeCode).join(', ')}</td><td>${enrolments.map((e) => e.startDate).join(', ')}</td></tr>`)}
</tbody></table></div><p><a href="/dashboard/learners?status=in_progress&amp;sort=start&amp;dir=desc">All learners in training</a></p>`;
}

/** A moderator's work on landing: the samples with the soonest due date first. */
async function moderationDue(d: DashboardDeps, s: SessionContext): Promise<Html> {
  const samples = await d.training.listModerationSamples.execute(
    s.actor,
    {},
    { kind: 'offset', offset: 0, limit: 200 },
  );
  const today = d.now().toISOString().slice(0, 10);
  const due = [...samples.items].sort((a, b) => (a.dueBy < b.dueBy ? -1 : 1)).slice(0, 10);
  return html`<h2>Moderation due</h2>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Due by</th><th scope="col">Sample</th><th scope="col">Results</th></tr></thead><tbody>
${due.map((x) => html`<tr><td>${x.dueBy}${x.dueBy < today ? html` <strong>(overdue)</strong>` : ''}</td><td><a href="/dashboard/moderation/${x.id}">${x.programmeCode}, ${x.percent}%</a></td><td>${x.assessmentIds.length}</td></tr>`)}
</tbody></table></div><p><a href="/dashboard/moderation">All samples${s.actor.scopes.includes('assessments:moderate') ? ', or draw one' : ''}</a></p>`;
}

/**
 * What a role finds first on the overview: an assessor their queue, a moderator what is due, a facilitator their
 * learners.
 */
export async function roleLanding(d: DashboardDeps, s: SessionContext): Promise<Html | null> {
  if (s.user.role === 'assessor') return assessorQueue(d, s);
  if (s.user.role === 'facilitator') return learnersInTraining(d, s);
  if (s.user.role === 'moderator') return moderationDue(d, s);
  return null;
}
