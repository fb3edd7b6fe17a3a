import type { WebhookRepos } from '@fundi/domain/webhooks';
import type { ErasureStep } from '../learners/erasure-steps.js';

/** The webhooks' part of an erasure: receivers' replies to the learner's redacted events leave the attempt log. */
export const webhookErasureStep: ErasureStep<Pick<WebhookRepos, 'webhookAttempts'>> = {
  detail: 'clearedResponses',
  erase: (tx, s) => tx.webhookAttempts.forgetResponses(s.tenantId, s.events),
};
