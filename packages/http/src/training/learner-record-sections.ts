import { html, when, type Html } from '../dashboard/html.js';
import type { PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { enrolForm } from './record-forms.js';
import { sectionsIn } from '../dashboard/page-sections.js';
import type { LearnerRecordAt } from '../learners/learner-record-slots.js';
import { can } from '../dashboard/web.js';
import { enrolmentCard } from './enrolment-card.js';

const ALL = { kind: 'offset', offset: 0, limit: 100 } as const;

declare module '../dashboard/dashboard-deps.js' {
  interface PageSlots {
    /**
     * A part of each enrolment's card on the learner's record (docs/dashboard.md, "Shared pages"), read once for the
     * learner: what it shows in the card of each enrolment.
     */
    enrolmentCard: { at: { learnerId: string }; shows: (enrolmentId: string) => Html | null };
  }
}

/** The learner's enrolments, each a card with its progress and the forms that act on it, and the form to enrol. */
export const learnerEnrolments: PageSection<SlotOf<'learnerRecord'>> = {
  order: 10,
  async render(d, s, at: LearnerRecordAt) {
    const l = at.learner;
    const [enrolments, programmes, parts] = await Promise.all([
      at.enrolments,
      can(s, 'programmes:read')
        ? d.training.listProgrammes.execute(s.actor, {}, { kind: 'offset', offset: 0, limit: 200 })
        : null,
      sectionsIn(d, s, 'enrolmentCard', { learnerId: l.id }),
    ]);
    const histories = await Promise.all(
      (enrolments ?? []).map((e) => d.training.getEnrolmentHistory.execute(s.actor, e.id).then((h) => h.changes)),
    );
    const names = new Map((programmes?.items ?? []).map((p) => [p.id, p.name]));
    const active = (programmes?.items ?? []).filter((p) => p.status === 'active');
    return html`${when(
      enrolments,
      () =>
        html`<h2>Enrolments</h2>${enrolments!.map((e, i) =>
          enrolmentCard(
            s,
            l.id,
            e,
            names.get(e.programmeId) ?? e.programmeCode,
            at.today,
            histories[i]!,
            parts.map((part) => part?.(e.id) ?? null),
          ),
        )}${when(enrolments!.length === 0, () => html`<p class="muted">No enrolments.</p>`)}`,
    )}
${when(can(s, 'enrolments:write') && active.length > 0, () => enrolForm(s, l.id, active, at.today))}`;
  },
};

/** The learner's assessments, each with its effective result. */
export const learnerAssessments: PageSection<SlotOf<'learnerRecord'>> = {
  order: 30,
  scope: 'assessments:read',
  async render(d, s, at) {
    const assessments = await d.training.listAssessments.execute(s.actor, { learnerId: at.learner.id }, ALL);
    return html`<h2>Assessments</h2><div class="table" tabindex="0"><table><thead><tr><th scope="col">Date</th><th scope="col">Programme</th><th scope="col">Module</th><th scope="col">Type</th><th scope="col">Result</th><th scope="col">Assessor</th></tr></thead><tbody>
${assessments.items.map((a) => html`<tr><td>${a.assessmentDate}</td><td>${a.programmeCode}</td><td>${a.moduleCode}</td><td>${a.assessmentType}</td><td>${a.effectiveOutcome}${a.moderation ? ` (moderated, was ${a.outcome})` : ''}</td><td>${a.assessorEmail ?? '-'}</td></tr>`)}
</tbody></table></div>`;
  },
};
