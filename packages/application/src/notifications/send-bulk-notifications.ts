import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { NotificationPorts } from './notification-ports.js';
import { notificationView, type NotificationView } from './notification-view.js';
import { findRecipients } from './recipients.js';
import { MAX_BULK_RECIPIENTS, type BulkSendRequest } from './notification-drafts.js';
import type { CreateNotifications } from './create-notifications.js';
import { apiDrafts } from './api-drafts.js';
import { catalogueOf } from './trigger-catalogue.js';

/** The same template to many recipients (at most 1,000); every id must exist, or nothing is sent. */
export class SendBulkNotifications {
  constructor(
    private readonly d: Pick<NotificationPorts, 'repos' | 'hooks'>,
    private readonly create: CreateNotifications,
  ) {}

  async execute(actor: Actor, req: BulkSendRequest): Promise<{ data: NotificationView[] }> {
    if (req.recipientIds.length === 0) throw DomainError.invalid('recipientIds', 'must name at least one recipient');
    if (req.recipientIds.length > MAX_BULK_RECIPIENTS)
      throw DomainError.invalid('recipientIds', `must name at most ${MAX_BULK_RECIPIENTS} recipients`);
    const seen = new Set<string>();
    const dup = req.recipientIds.findIndex((x) => seen.size === seen.add(x).size);
    if (dup >= 0) throw DomainError.invalid(`recipientIds.${dup}`, 'names a recipient twice');
    const recipients = await findRecipients(this.d.repos, actor.tenantId, req.recipientIds);
    const made = await this.create.execute(actor.tenantId, apiDrafts(actor, recipients, req, catalogueOf(this.d)), {
      strict: true,
    });
    return { data: made.map(notificationView) };
  }
}
