import type { Actor } from '../common/actor.js';
import type { LogbookDeps } from './logbook-deps.js';
import { logbookEntryNotFound } from './logbook-entry-not-found.js';
import { logbookView, type LogbookEntryView } from './logbook-view.js';

/** `GET /logbook-entries/{id}` (`getLogbookEntry`). */
export class GetLogbookEntry {
  constructor(private readonly d: LogbookDeps) {}

  async execute(actor: Actor, id: string): Promise<LogbookEntryView> {
    const e = await this.d.repos.logbookEntries.findById(actor.tenantId, id);
    if (!e) throw logbookEntryNotFound(id);
    return logbookView(e);
  }
}
