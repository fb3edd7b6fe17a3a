import type { Page, PageRequest } from '@fundi/domain';
import type { LogbookFilter } from '@fundi/domain/logbooks';
import type { Actor } from '../common/actor.js';
import type { LogbookDeps } from './logbook-deps.js';
import { logbookView, type LogbookEntryView } from './logbook-view.js';

/** `GET /logbook-entries` (`listLogbookEntries`): a page of entries, filtered by learner, module and status. */
export class ListLogbookEntries {
  constructor(private readonly d: LogbookDeps) {}

  async execute(actor: Actor, filter: LogbookFilter, page: PageRequest): Promise<Page<LogbookEntryView>> {
    const p = await this.d.repos.logbookEntries.list(actor.tenantId, filter, page);
    return { ...p, items: p.items.map(logbookView) };
  }
}
