import { newId, type DomainEvent, type PlatformRepos } from '@fundi/domain';
import type { LearnerRepos, LearnerSnapshot } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';
import type { CoreDeps } from '../common/ports.js';
import { ENROLMENT_COMPLETED_EVENT } from '../enrolments/enrolment-completed.js';
import type { JobContext } from '../jobs/job-definition.js';
import { hrCompetencyEvents, hrCompletionEvents } from './hr-outbound-events.js';

type Repos = LearnerRepos & TrainingRepos & PlatformRepos;
const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** A committed event HR hears of, as the outbound job is told it. */
export interface HrSource {
  tenantId: string;
  eventId: string;
  type: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

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
      const employees = await employeesOf(tx, sources);
      const out: DomainEvent[] = [];
      for (const s of sources) {
        const learner = employees.get(`${s.tenantId} ${str(s.data.learnerId)}`);
        if (!learner) continue;
        for (const e of await this.messagesOf(tx, s, learner))
          out.push({ id: newId('evt'), tenantId: s.tenantId, occurredAt: s.occurredAt, ...e });
      }
      if (out.length) await tx.outbox.addMany(out);
      await ctx.reportIn(tx.jobs, { processed: sources.length, total: sources.length });
    });
  }

  private async messagesOf(tx: Repos, s: HrSource, learner: LearnerSnapshot) {
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

/**
 * The learners HR knows (with an employeeRef) among the sources', by `<tenant> <learner>`, read once per tenant (an
 * import's batch of assessments is one job). An event redacted by an erasure names no learner.
 */
async function employeesOf(tx: Repos, sources: readonly HrSource[]): Promise<Map<string, LearnerSnapshot>> {
  const byTenant = new Map<string, Set<string>>();
  for (const s of sources) {
    const id = str(s.data.learnerId);
    if (!id) continue;
    let ids = byTenant.get(s.tenantId);
    if (!ids) byTenant.set(s.tenantId, (ids = new Set()));
    ids.add(id);
  }
  const out = new Map<string, LearnerSnapshot>();
  for (const [tenantId, ids] of byTenant)
    for (const l of await tx.learners.findByIds(tenantId, [...ids]))
      if (l.employeeRef) out.set(`${tenantId} ${l.id}`, l);
  return out;
}
