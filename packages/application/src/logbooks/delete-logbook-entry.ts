import { LogbookEntry } from '@fundi/domain/logbooks';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { LogbookDeps } from './logbook-deps.js';
import { logbookEntryNotFound } from './logbook-entry-not-found.js';

/** `DELETE /logbook-entries/{id}` (`deleteLogbookEntry`): an entry is deleted until it is signed; audited. */
export class DeleteLogbookEntry {
  constructor(private readonly d: LogbookDeps) {}

  async execute(actor: Actor, id: string): Promise<void> {
    const now = this.d.clock.now();
    await this.d.uow.run(async (tx) => {
      const cur = await tx.logbookEntries.findById(actor.tenantId, id);
      if (!cur) throw logbookEntryNotFound(id);
      LogbookEntry.assertDeletable(cur);
      await tx.logbookEntries.delete(actor.tenantId, id);
      await recordChange(tx, actor, now, {
        action: 'logbook.deleted',
        resourceType: 'logbook_entry',
        resourceId: id,
        learnerId: cur.learnerId,
      });
    });
  }
}
