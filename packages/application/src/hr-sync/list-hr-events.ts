import type { Page, PageRequest } from '@fundi/domain';
import type { HrEventEntry } from '@fundi/domain/hr-sync';
import type { Actor } from '../common/actor.js';
import type { HrSyncDeps } from './hr-sync-ports.js';
import { requireAdmin } from './hr-sync-ports.js';

/** An inbound call as listed: without the tenant and the idempotency key. */
export type HrEventView = Omit<HrEventEntry, 'tenantId' | 'eventKey'>;

/** `GET /hr-sync/events`: every inbound call after authentication, newest first. */
export class ListHrEvents {
  constructor(private readonly deps: Pick<HrSyncDeps, 'repos'>) {}

  async execute(actor: Actor, page: PageRequest): Promise<Page<HrEventView>> {
    requireAdmin(actor);
    const result = await this.deps.repos.hrEvents.list(actor.tenantId, page);
    return { ...result, items: result.items.map(({ tenantId: _t, eventKey: _k, ...rest }) => rest) };
  }
}
