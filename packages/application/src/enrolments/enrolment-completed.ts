/**
 * Internal event (not a webhook event type) of the training capability: an enrolment moved to `completed`;
 * `data: {enrolmentId, learnerId, programmeId, achievementDate, certificateNumber}`, the learner its subject (an
 * erasure redacts it). It carries what `enrolment.status_changed` does not: the certificate number given with the
 * completion. Other capabilities react to it (HR's `learner.completed`: docs/api.md, "HR sync").
 */
export const ENROLMENT_COMPLETED_EVENT = 'enrolment.completed';
