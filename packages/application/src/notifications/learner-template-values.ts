import { DomainError } from '@fundi/domain';
import { Enrolment, type AssessmentSnapshot, type EnrolmentSnapshot } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { NotificationPorts } from './notification-ports.js';
import type { TemplateVariable } from './template-variables.js';

/** How a result reads in a message (the `assessment_result` trigger's words too). */
export const OUTCOME_WORDS: Record<string, string> = { C: 'competent', NYC: 'not yet competent' };

/** The deadline reminder's values for an enrolment due on `date` (the daily reminder's words too). */
export function deadlineValues(programmeName: string, date: string): Partial<Record<TemplateVariable, string>> {
  return { 'deadline.task': `completing ${programmeName}`, 'deadline.date': date, 'programme.name': programmeName };
}

/** The enrolment a message is about: open ones first, then the latest start, then the latest made. */
function current(enrolments: readonly EnrolmentSnapshot[]): EnrolmentSnapshot | null {
  const rank = (e: EnrolmentSnapshot) => (Enrolment.isOpen(e) ? 1 : 0);
  return (
    [...enrolments].sort(
      (a, b) => rank(b) - rank(a) || b.startDate.localeCompare(a.startDate) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
    )[0] ?? null
  );
}

/** The latest result: by assessment date, then when it was recorded (the order a module's status reads them in). */
function latest(results: readonly AssessmentSnapshot[]): AssessmentSnapshot | null {
  return (
    [...results]
      .sort((a, b) => a.assessmentDate.localeCompare(b.assessmentDate) || a.createdAt.localeCompare(b.createdAt))
      .at(-1) ?? null
  );
}

/**
 * The template values a learner's own record gives, for a send that names none: the dashboard's bulk send
 * (docs/dashboard.md, "Pages": bulk actions). From the enrolment the message is about (in `programmeCode` when
 * given, else any; an open one first, then the latest started): `programme.name`; with an expected end date, the
 * deadline reminder's `deadline.date` and `deadline.task`; with a result, the latest one's `module.name` and
 * `assessment.result`. The learner's names, the organisation and the portal link are filled by every send
 * (`CreateNotifications`). A learner without such an enrolment gets none of these, so a template that needs them is
 * refused for that learner with the send's words. Not found when the learner is not the tenant's.
 */
export class LearnerTemplateValues {
  constructor(private readonly d: Pick<NotificationPorts, 'repos'>) {}

  async execute(actor: Actor, learnerId: string, programmeCode?: string): Promise<Record<string, string>> {
    const t = actor.tenantId;
    if (!(await this.d.repos.learners.findById(t, learnerId))) throw DomainError.notFound('learner', learnerId);
    const mine = await this.d.repos.enrolments.ofLearners(t, programmeCode ? { programmeCode } : {}, [learnerId]);
    const e = current(mine);
    const programme = e ? await this.d.repos.programmes.findById(t, e.programmeId) : null;
    if (!e || !programme) return {};
    const values: Partial<Record<TemplateVariable, string>> = e.expectedEndDate
      ? deadlineValues(programme.name, e.expectedEndDate)
      : { 'programme.name': programme.name };
    const result = latest(await this.d.repos.assessments.ofEnrolments(t, [e.id]));
    if (result) {
      values['module.name'] = programme.modules.find((m) => m.code === result.moduleCode)?.name ?? result.moduleCode;
      values['assessment.result'] = OUTCOME_WORDS[result.outcome] ?? result.outcome;
    }
    return Object.fromEntries(Object.entries(values).filter((kv): kv is [string, string] => kv[1] !== undefined));
  }
}
