import { ChangeEnrolmentStatus } from '../enrolments/change-enrolment-status.js';
import { EnrolLearner } from '../enrolments/enrol-learner.js';
import { RegisterLearner } from '../learners/register-learner.js';
import { UpdateLearner } from '../learners/update-learner.js';
import { ListDeliveryAttempts } from '../webhooks/list-delivery-attempts.js';
import { ReplayDelivery } from '../webhooks/replay-delivery.js';
import { RotateWebhookSecret } from '../webhooks/rotate-webhook-secret.js';
import { GetHrSync } from './get-hr-sync.js';
import { PutHrSync } from './put-hr-sync.js';
import { hrSubscriptionPurpose } from './hr-subscription.js';
import { ListHrDeliveries } from './list-hr-deliveries.js';
import { ListHrEvents } from './list-hr-events.js';
import { ReplayHrDelivery } from './replay-hr-delivery.js';
import { RotateHrSigningSecret } from './rotate-hr-signing-secret.js';
import type { HrSyncDeps } from './hr-sync-ports.js';
import { ReceiveHrEvent } from './receive-hr-event.js';
import { RotateHrKey } from './rotate-hr-key.js';
import { SendHrOutbound } from './send-hr-outbound.js';

/**
 * HR sync's use cases. Inbound events run through the learner and enrolment use cases themselves; the outbound
 * messages follow committed training events (`hrOutboundReaction`) and are delivered by the webhook use cases over
 * the HR subscription.
 */
export function hrSyncUseCases(d: HrSyncDeps) {
  const hooks = { ...d, purpose: hrSubscriptionPurpose.name };
  const outbound = {
    listAttempts: new ListDeliveryAttempts(hooks),
    replayDelivery: new ReplayDelivery(hooks),
    rotateSecret: new RotateWebhookSecret(hooks),
  };
  const inbound = {
    registerLearner: new RegisterLearner(d),
    updateLearner: new UpdateLearner(d),
    enrolLearner: new EnrolLearner(d),
    changeEnrolmentStatus: new ChangeEnrolmentStatus(d),
  };
  return {
    get: new GetHrSync(d),
    put: new PutHrSync(d),
    rotateKey: new RotateHrKey(d),
    rotateSigningSecret: new RotateHrSigningSecret({ ...d, outbound }),
    receive: new ReceiveHrEvent({ ...d, ...inbound }),
    listEvents: new ListHrEvents(d),
    listDeliveries: new ListHrDeliveries({ ...d, outbound }),
    replayDelivery: new ReplayHrDelivery({ ...d, outbound }),
    sendOutbound: new SendHrOutbound(d),
  };
}

export type HrSyncUseCases = ReturnType<typeof hrSyncUseCases>;
