import type { EventDocs } from '../openapi/event-doc.js';
import { ERASABLE, writeSource } from '../openapi/event-doc.js';
import { Timestamp, z } from '../schemas/common.js';
import { LearnerOut } from './learner-schemas.js';

/**
 * The `data` of each event exactly as its producer (packages/application) writes it, built from the response
 * schemas so a field is described once. The objects are closed; the webhook conformance tests parse real deliveries
 * with them, so a producer that adds or drops a field fails them until this file follows.
 */
/**
 * The `data` of each event exactly as its producer (packages/application) writes it, built from the response
 * schemas so a field is described once. The objects are closed here; the webhook conformance test parses real
 * deliveries with them, so a producer that adds or drops a field fails it until this file follows.
 */
/**
 * What a learner event carries once its learner was erased (POPIA): a retry or replay after the DELETE sends
 * this in place of the personal data that was in the event.
 */
export const ErasedLearnerData = z
  .object({
    id: z.string(),
    erased: z.literal(true),
  })
  .strict()
  .openapi('ErasedLearnerData', { description: "The learner was erased; the event's personal data is gone" });

export const LearnerCreatedData = LearnerOut.extend(writeSource).openapi('LearnerCreatedData');

export const LearnerUpdatedData = z
  .object({
    id: z.string(),
    changes: LearnerOut.omit({ id: true, createdAt: true, updatedAt: true }).partial().strict().openapi({
      description:
        'Only the fields that changed, with their new values (`null` = cleared). A new ID number brings its derived dateOfBirth, gender and citizenship.',
    }),
    updatedAt: Timestamp,
  })
  .strict()
  .openapi('LearnerUpdatedData');

/** The learners capability's events (docs/api.md, "Events and webhooks"). */
export const learnerEvents = {
  'learner.created': {
    summary: 'A learner is registered',
    description: `Data: the learner as \`GET /learners/{id}\` returns it.${ERASABLE}`,
    data: z.union([LearnerCreatedData, ErasedLearnerData]),
  },
  'learner.updated': {
    summary: 'A learner record changes; only the changed fields are sent',
    description: ERASABLE.trim(),
    data: z.union([LearnerUpdatedData, ErasedLearnerData]),
  },
} satisfies EventDocs;
