import type { Actor } from '../common/actor.js';
import type { LogbookDeps } from './logbook-deps.js';
import { submitEntries, type LogbookSubmitted } from './logbook-submissions.js';

/**
 * `POST /logbook-entries/submit` (`submitLogbookEntries`): several entries of one learner for sign-off together (all
 * or none): one link per supervisor address, the `logbook.submitted` event per entry (docs/api.md, "Logbooks").
 */
export class SubmitLogbookEntries {
  constructor(private readonly d: LogbookDeps) {}

  async execute(actor: Actor, ids: unknown): Promise<LogbookSubmitted> {
    return this.d.uow.run((tx) => submitEntries(this.d, tx, actor, ids));
  }
}
