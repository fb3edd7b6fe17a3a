import type { AuditRepos } from '@fundi/domain/audit';
import type { EnrolmentAtRisk, TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { KeptUntilChange } from '../common/kept-until-change.js';
import { watchWindow } from './enrolments-to-watch.js';

type AtRisk = { enrolments: number; learners: number; items: EnrolmentAtRisk[] };

/**
 * Open enrolments at risk (docs/dashboard.md, "Pages": the overview): past their expected end date, or started at least
 * `WATCH_DAYS` ago with no assessment dated in the last `WATCH_DAYS` days and not among `active` (the enrolments
 * with evidence uploaded since then, which the evidence capability answers). Days are the tenant's, in its time zone
 * `timeZone`. Counts, and the first `limit`. The statement reads every open enrolment of the tenant, so its answer is
 * kept until the tenant's data changes (`KeptUntilChange`) for the same day, window and `active` enrolments.
 */
export class EnrolmentsAtRisk {
  private readonly kept: KeptUntilChange<AtRisk>;

  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos & AuditRepos>, 'repos' | 'clock'>) {
    this.kept = new KeptUntilChange(deps.repos.auditTrail);
  }

  execute(actor: Actor, o: { active: readonly string[]; limit: number; timeZone: string }): Promise<AtRisk> {
    const { today, since } = watchWindow(this.deps.clock.now(), o.timeZone);
    const active = [...o.active].sort();
    const key = `at-risk|${today}|${since}|${o.limit}|${active.join(',')}`;
    return this.kept.get(actor.tenantId, key, () =>
      this.deps.repos.enrolments.atRisk(actor.tenantId, { today, since, active, limit: o.limit }),
    );
  }
}
