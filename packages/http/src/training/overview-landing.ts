import type { PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { html } from '../dashboard/html.js';

/**
 * A facilitator's work on landing: their learners. Learners are not assigned to staff users, so these are the
 * learners in training (enrolments in progress, latest started first), as the closest to "their learners".
 */
export const learnersInTraining: PageSection<SlotOf<'overviewLanding'>> = {
  order: 10,
  role: 'facilitator',
  async render(d, s) {
    const open = await d.training.listLearnerRoster.execute(
      s.actor,
      { status: 'in_progress', sort: 'start', descending: true },
      { offset: 0, limit: 10 },
    );
    return html`<h2>Your learners: in training (${open.total})</h2>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Learner</th><th scope="col">ID number</th><th scope="col">Programme</th><th scope="col">Started</th></tr></thead><tbody>
${open.items.map(({ learner: l, enrolments }) => html`<tr><td><a href="/dashboard/learners/${l.id}">${l.firstName} ${l.lastName}</a></td><td>${l.idNumber ?? l.alternateId ?? ''}</td><td>${enrolments.map((e) => e.programmeCode).join(', ')}</td><td>${enrolments.map((e) => e.startDate).join(', ')}</td></tr>`)}
</tbody></table></div><p><a href="/dashboard/learners?status=in_progress&amp;sort=start&amp;dir=desc">All learners in training</a></p>`;
  },
};

/** A moderator's work on landing: the samples with the soonest due date first. */
export const moderationDue: PageSection<SlotOf<'overviewLanding'>> = {
  order: 20,
  role: 'moderator',
  async render(d, s) {
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
  },
};
