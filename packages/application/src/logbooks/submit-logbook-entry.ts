import type { Actor } from '../common/actor.js';
import type { LogbookDeps } from './logbook-deps.js';
import { logbookEntryNotFound } from './logbook-entry-not-found.js';
import { submitEntries } from './logbook-submissions.js';
import type { LogbookEntryView } from './logbook-view.js';

/** `POST /logbook-entries/{id}/submit` (`submitLogbookEntry`): the entry alone for sign-off, a submission of one. */
export class SubmitLogbookEntry {
  constructor(private readonly d: LogbookDeps) {}

  async execute(actor: Actor, id: string): Promise<LogbookEntryView> {
    return this.d.uow.run(async (tx) => {
      if (!(await tx.logbookEntries.findById(actor.tenantId, id))) throw logbookEntryNotFound(id);
      return (await submitEntries(this.d, tx, actor, [id])).data[0]!;
    });
  }
}
