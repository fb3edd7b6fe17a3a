import type { NotificationRepos } from '@fundi/domain/notifications';
import type { ErasureStep } from '../learners/erasure-steps.js';
import { mentionsOf } from '../learners/learner-erasure.js';

/**
 * The notifications' part of an erasure: notifications to or about the learner (or, sent through the API to staff,
 * naming them) keep their statuses and times, not the address or what they said.
 */
export const notificationErasureStep: ErasureStep<Pick<NotificationRepos, 'notifications'>> = {
  detail: 'redactedNotifications',
  erase: (tx, s) => tx.notifications.redactLearner(s.tenantId, s.learnerId, mentionsOf(s.learner)),
};
