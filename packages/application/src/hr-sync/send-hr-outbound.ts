import { newId, type DomainEvent, type LearnerRepos, type PlatformRepos, type TrainingRepos } from '@fundi/domain';
import type { CoreDeps } from '../common/ports.js';
import { ENROLMENT_COMPLETED_EVENT } from '../enrolments/enrolment-completed.js';
import type { JobContext } from '../jobs/job-definition.js';
import { hrCompetencyEvents, hrCompletionEvents } from './hr-outbound-events.js';
import type { HrSource } from './hr-outbound-reaction.js';

type Repos = LearnerRepos & TrainingRepos & PlatformRepos;
const str = (v: unknown) => (typeof v === 'string' ? v : null);

/**
 * Writes HR's outbound messages (`learner.completed`, `learner.competency`: docs/api.md, "HR sync") for committed
 * training events, each at the time of the change it reports, to the outbox, from which the HR subscription
 * delivers them. The messages and the progress that says they are written commit in one transaction, so a job run
 * again after a crash writes nothing twice. Learners without an employeeRef (or erased since) send nothing.
 */
export class SendHrOutbound {
  constructor(private readonly deps: CoreDeps<Repos>) {}

  async execute(sources: readonly HrSource[], ctx: Pick<JobContext, 'progress' | 'reportIn'>): Promise<void> {
    if (ctx.progress?.total != null && ctx.progress.processed >= ctx.progress.total) return;
    await this.deps.uow.run(async (tx) => {
      const out: DomainEvent[] = [];
      for (const s of sources) {
        for (const e of await this.messagesOf(tx, s))
          out.push({ id: newId('evt'), tenantId: s.tenantId, occurredAt: s.occurredAt, ...e });
      }
      if (out.length) await tx.outbox.addMany(out);
      await ctx.reportIn(tx.jobs, { processed: sources.length, total: sources.length });
    });
  }

  private async messagesOf(tx: Repos, s: HrSource) {
    const learnerId = str(s.data.learnerId);
    if (!learnerId) return []; // redacted by an erasure
    const learner = await tx.learners.findById(s.tenantId, learnerId);
    if (!learner?.employeeRef) return [];
    if (s.type === ENROLMENT_COMPLETED_EVENT) {
      const programme = await tx.programmes.findById(s.tenantId, str(s.data.programmeId) ?? '');
      const date = str(s.data.achievementDate) ?? '';
      return hrCompletionEvents(learner, programme, date, str(s.data.certificateNumber));
    }
    if (s.type === 'assessment.recorded') {
      const f = (k: string) => str(s.data[k]) ?? '';
      const competency = { moduleCode: f('moduleCode'), outcome: f('outcome'), assessmentType: f('assessmentType') };
      return hrCompetencyEvents(learner, { ...competency, assessmentDate: f('assessmentDate') });
    }
    if (s.type !== 'moderation.completed') return [];
    // An overturned moderation: the outcome that now counts, with the assessment's type and date.
    const a = await tx.assessments.findById(s.tenantId, str(s.data.assessmentId) ?? '');
    if (!a) return [];
    const outcome = str(s.data.effectiveOutcome) ?? a.outcome;
    return hrCompetencyEvents(learner, { ...a, outcome });
  }
}
