import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { NotificationPorts } from './notification-ports.js';
import { notificationView, type NotificationView } from './notification-view.js';

/** One notification of the actor's tenant; 404 for another tenant's. */
export class GetNotification {
  constructor(private readonly d: Pick<NotificationPorts, 'repos'>) {}

  async execute(actor: Actor, id: string): Promise<NotificationView> {
    const n = await this.d.repos.notifications.findById(actor.tenantId, id);
    if (!n) throw DomainError.notFound('notification', id);
    return notificationView(n);
  }
}
