import type { EnrolmentAtRisk, EnrolmentSnapshot, TrainingRepos } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';

const DAY_MS = 86_400_000;
/** How long without an assessment or evidence makes an open enrolment idle, and how far ahead deadlines are shown. */
export const WATCH_DAYS = 30;

/** The days the overview's lists are about: today (UTC), `WATCH_DAYS` ago and `WATCH_DAYS` ahead (YYYY-MM-DD). */
export function watchWindow(now: Date): { today: string; since: string; until: string } {
  const day = (offset: number) => new Date(now.getTime() + offset * DAY_MS).toISOString().slice(0, 10);
  return { today: day(0), since: day(-WATCH_DAYS), until: day(WATCH_DAYS) };
}

/**
 * Open enrolments at risk (docs/dashboard.md, "Pages": the overview): past their expected end date, or started at least
 * `WATCH_DAYS` ago with no assessment dated in the last `WATCH_DAYS` days and not among `active` (the enrolments
 * with evidence uploaded since then, which the evidence capability answers). Counts, and the first `limit`.
 */
export class EnrolmentsAtRisk {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos>, 'repos' | 'clock'>) {}

  async execute(
    actor: Actor,
    o: { active: readonly string[]; limit: number },
  ): Promise<{ enrolments: number; learners: number; items: EnrolmentAtRisk[] }> {
    const { today, since } = watchWindow(this.deps.clock.now());
    return this.deps.repos.enrolments.atRisk(actor.tenantId, { today, since, active: o.active, limit: o.limit });
  }
}

/** Open enrolments whose expected end date is today or in the next `WATCH_DAYS` days: how many, and the first `limit`. */
export class EnrolmentsDue {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos>, 'repos' | 'clock'>) {}

  async execute(actor: Actor, o: { limit: number }): Promise<{ total: number; items: EnrolmentSnapshot[] }> {
    const { today, until } = watchWindow(this.deps.clock.now());
    return this.deps.repos.enrolments.dueBetween(actor.tenantId, { from: today, to: until, limit: o.limit });
  }
}
