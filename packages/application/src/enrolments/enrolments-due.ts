import type { EnrolmentSnapshot, TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { watchWindow } from './enrolments-to-watch.js';

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
