import { LogbookEntry, type LogbookInput } from '@fundi/domain/logbooks';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { LogbookDeps } from './logbook-deps.js';
import { logbookEntryNotFound } from './logbook-entry-not-found.js';
import { logbookView, type LogbookEntryView } from './logbook-view.js';

/** `PATCH /logbook-entries/{id}` (`updateLogbookEntry`): an entry is edited until it is signed; audited. */
export class UpdateLogbookEntry {
  constructor(private readonly d: LogbookDeps) {}

  async execute(actor: Actor, id: string, input: LogbookInput): Promise<LogbookEntryView> {
    const now = this.d.clock.now();
    return this.d.uow.run(async (tx) => {
      const cur = await tx.logbookEntries.findById(actor.tenantId, id);
      if (!cur) throw logbookEntryNotFound(id);
      const next = LogbookEntry.update(cur, input, now);
      await tx.logbookEntries.update(next);
      await recordChange(tx, actor, now, {
        action: 'logbook.updated',
        resourceType: 'logbook_entry',
        resourceId: id,
        learnerId: cur.learnerId,
        details: { fields: Object.keys(input) },
      });
      return logbookView(next);
    });
  }
}
