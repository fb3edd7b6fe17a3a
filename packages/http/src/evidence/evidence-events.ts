import { EVIDENCE_TYPES, REVIEW_OUTCOMES } from '@fundi/domain/evidence';
import type { EventDocs } from '../openapi/event-doc.js';
import { ERASABLE } from '../openapi/event-doc.js';
import { z } from '../schemas/common.js';
import { ErasedLearnerData } from '../learners/learner-events.js';

/**
 * The `data` of each event exactly as its producer (packages/application) writes it, built from the response
 * schemas so a field is described once. The objects are closed; the webhook conformance tests parse real deliveries
 * with them, so a producer that adds or drops a field fails them until this file follows.
 */
export const EvidenceUploadedData = z
  .object({
    evidenceId: z.string(),
    learnerId: z.string(),
    moduleId: z.string(),
    enrolmentId: z.string(),
    evidenceType: z.enum(EVIDENCE_TYPES),
    filename: z.string(),
    contentType: z.string(),
    size: z.number().int(),
    version: z.number().int(),
  })
  .strict()
  .openapi('EvidenceUploadedData');

export const EvidenceReviewedData = z
  .object({
    evidenceId: z.string(),
    learnerId: z.string(),
    moduleId: z.string(),
    status: z.enum(REVIEW_OUTCOMES),
    feedback: z.string().nullable(),
    version: z.number().int(),
  })
  .strict()
  .openapi('EvidenceReviewedData');

/** The evidence capability's events (docs/api.md, "Events and webhooks"). */
export const evidenceEvents = {
  'evidence.uploaded': {
    summary: 'Evidence, or a new version of it, is stored',
    description: `The file name may identify the learner.${ERASABLE}`,
    data: z.union([EvidenceUploadedData, ErasedLearnerData]),
  },
  'evidence.reviewed': {
    summary: 'Evidence is approved, rejected or sent back for revision',
    description: `Feedback may identify the learner.${ERASABLE}`,
    data: z.union([EvidenceReviewedData, ErasedLearnerData]),
  },
} satisfies EventDocs;
