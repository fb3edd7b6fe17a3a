import type { Page, PageRequest } from '@fundi/domain';
import type { NotificationFilter } from '@fundi/domain/notifications';
import type { Actor } from '../common/actor.js';
import type { NotificationPorts } from './notification-ports.js';
import { notificationView, type NotificationView } from './notification-view.js';

/** The tenant's notifications by the filter, in the form's paging. */
export class ListNotifications {
  constructor(private readonly d: Pick<NotificationPorts, 'repos'>) {}

  async execute(actor: Actor, filter: NotificationFilter, page: PageRequest): Promise<Page<NotificationView>> {
    const p = await this.d.repos.notifications.list(actor.tenantId, filter, page);
    return { ...p, items: p.items.map(notificationView) };
  }
}
