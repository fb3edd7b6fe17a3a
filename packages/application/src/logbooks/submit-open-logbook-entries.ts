import type { Actor } from '../common/actor.js';
import type { LogbookDeps } from './logbook-deps.js';
import { submitOpenEntries, type LogbookSubmitted, type OpenEntriesFilter } from './logbook-submissions.js';

/**
 * Sends every unsigned entry (draft or queried) of the learner that the filter keeps, any number, all or none:
 * groups of at most 50 per supervisor, each its own sign-off request (the learner portal's buttons; docs/api.md,
 * "Logbooks"). Not found when there is none.
 */
export class SubmitOpenLogbookEntries {
  constructor(private readonly d: LogbookDeps) {}

  async execute(actor: Actor, learnerId: string, filter: OpenEntriesFilter): Promise<LogbookSubmitted> {
    return this.d.uow.run((tx) => submitOpenEntries(this.d, tx, actor, learnerId, filter));
  }
}
