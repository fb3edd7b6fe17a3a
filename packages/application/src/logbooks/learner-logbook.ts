import type { Actor } from '../common/actor.js';
import type { LogbookDeps } from './logbook-deps.js';
import { logbookView, type LogbookEntryView } from './logbook-view.js';

/** Every entry of the learner, in creation order (the learner portal's logbook page). */
export class LearnerLogbook {
  constructor(private readonly d: LogbookDeps) {}

  async execute(actor: Actor, learnerId: string): Promise<LogbookEntryView[]> {
    return (await this.d.repos.logbookEntries.listForLearner(actor.tenantId, learnerId)).map(logbookView);
  }
}
