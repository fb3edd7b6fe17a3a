import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { NotificationPorts } from './notification-ports.js';
import { notificationView, type NotificationView } from './notification-view.js';
import { findRecipient } from './recipients.js';
import type { SendRequest } from './notification-drafts.js';
import type { CreateNotifications } from './create-notifications.js';
import { apiDrafts } from './api-drafts.js';
import { catalogueOf } from './trigger-catalogue.js';

/** One notification to a staff user or a learner; 202 with the record (queued, or skipped with the reason). */
export class SendNotification {
  constructor(
    private readonly d: Pick<NotificationPorts, 'repos' | 'hooks'>,
    private readonly create: CreateNotifications,
  ) {}

  async execute(actor: Actor, req: SendRequest): Promise<NotificationView> {
    const id = req.learnerId ?? req.recipientId;
    if (!id) throw DomainError.invalid('recipientId', 'is required (or learnerId)');
    const field = req.learnerId ? 'learnerId' : 'recipientId';
    const recipient = await findRecipient(this.d.repos, actor.tenantId, id, field, req.learnerId ? 'learner' : 'any');
    const [n] = await this.create.execute(actor.tenantId, apiDrafts(actor, [recipient], req, catalogueOf(this.d)), {
      strict: true,
    });
    return notificationView(n!);
  }
}
