import { addDays, dayIn } from '@fundi/domain';
import type { AuditRepos } from '@fundi/domain/audit';
import type { EnrolmentAtRisk, EnrolmentSnapshot, TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { KeptUntilChange } from '../common/kept-until-change.js';

/** How long without an assessment or evidence makes an open enrolment idle, and how far ahead deadlines are shown. */
export const WATCH_DAYS = 30;

/**
 * The days the overview's lists are about (YYYY-MM-DD): today in the tenant's time zone `zone`, `WATCH_DAYS` before
 * and `WATCH_DAYS` after it.
 */
export function watchWindow(now: Date, zone: string): { today: string; since: string; until: string } {
  const today = dayIn(now, zone);
  return { today, since: addDays(today, -WATCH_DAYS), until: addDays(today, WATCH_DAYS) };
}

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

/** Open enrolments whose expected end date is today (in the tenant's time zone `timeZone`) or in the next `WATCH_DAYS` days: how many, and the first `limit`. */
export class EnrolmentsDue {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos>, 'repos' | 'clock'>) {}

  async execute(
    actor: Actor,
    o: { limit: number; timeZone: string },
  ): Promise<{ total: number; items: EnrolmentSnapshot[] }> {
    const { today, until } = watchWindow(this.deps.clock.now(), o.timeZone);
    return this.deps.repos.enrolments.dueBetween(actor.tenantId, { from: today, to: until, limit: o.limit });
  }
}
