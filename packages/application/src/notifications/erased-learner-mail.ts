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
  constructor(private readonly d: Pick<NotificationPorts, 'channels'>) {}

  execute(p: ErasedLearner): Promise<number> {
    return this.d.channels.forgetMailAbout(p.learnerId);
  }
}
