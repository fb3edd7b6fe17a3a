import { DomainError } from '@fundi/domain';
import { recordChange } from '../common/record-change.js';
import { systemActor } from '../common/actor.js';
import type { NotificationPorts } from './notification-ports.js';
import { UNSUBSCRIBE_PURPOSE } from './notification-drafts.js';

/** One-click unsubscribe from a learner's mail: the learner opts out of email (audited). */
export class UnsubscribeByLink {
  constructor(private readonly d: NotificationPorts) {}

  async execute(token: string): Promise<{ unsubscribed: boolean }> {
    const payload = this.d.signer.verify(token, UNSUBSCRIBE_PURPOSE);
    if (!payload) throw new DomainError('forbidden', 'signed_url_invalid', 'The unsubscribe link is not valid');
    const [tenantId, learnerId] = payload.split(':') as [string, string];
    const now = this.d.clock.now();
    await this.d.uow.run(async (tx) => {
      const l = await tx.learners.findById(tenantId, learnerId);
      if (!l) return;
      await tx.learners.update({ ...l, emailOptOut: true, updatedAt: now.toISOString() });
      await recordChange(tx, systemActor(tenantId), now, {
        action: 'learner.email_opt_out',
        resourceType: 'learner',
        resourceId: learnerId,
        details: { via: 'unsubscribe_link' },
      });
    });
    return { unsubscribed: true };
  }
}
