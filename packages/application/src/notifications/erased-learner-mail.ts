import { erasureJobType, type ErasedLearner } from '../learners/learner-erasure.js';
import type { NotificationPorts } from './notification-ports.js';

/** The notifications' part of an erasure (queued by the `learner.erased` event). */
export const ERASE_MAIL_COPIES = erasureJobType('notifications.erase_learner');

/**
 * An erased learner's copies of mail (docs/api.md, "Erasure"): the outbox folder's messages to or about the learner
 * are deleted. The stored notifications were redacted by the erasure itself; a message being written at that
 * moment is deleted by its send job, which sees the redaction when it records the outcome.
 */
export class ForgetLearnerMail {
  constructor(private readonly d: Pick<NotificationPorts, 'channels' | 'repos'>) {}

  async execute(p: ErasedLearner): Promise<number> {
    // By the learner's id (in the names of mail to and about them) and by the notifications' own ids (a message
    // sent through the API to staff that named the learner, found by the erasure).
    const ids = await this.d.repos.notifications.idsAbout(p.tenantId, p.learnerId);
    return this.d.channels.forgetMail([p.learnerId, ...ids]);
  }
}
