import type { AuditOriginsView } from '@fundi/application/audit';
import { ActorOut, Instant, Timestamp, z } from '../schemas/common.js';

const Change = z
  .object({
    from: z
      .unknown()
      .openapi({ description: 'The value before; `"[erased]"` for a personal field of an erased learner' }),
    to: z.unknown().openapi({ description: 'The value after; `"[erased]"` for a personal field of an erased learner' }),
  })
  .openapi('AuditChange');

/**
 * An audit entry as the API shows it, with the origins and the service's own actors as declared (the kernel's and
 * those capabilities act as): `origin.via` is one of `o.vias`, in their order.
 */
export function auditSchemas(o: AuditOriginsView) {
  const AuditEntryOut = z
    .object({
      id: z.string().openapi({ example: 'aud_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
      at: Timestamp,
      actor: ActorOut,
      action: z.string().openapi({ example: 'learner.updated' }),
      entityType: z.string().openapi({ example: 'learner' }),
      entityId: z.string().openapi({ example: 'lrn_01jd2x9k3m4n5p6q7r8s9t0v1w' }),
      learnerId: z.string().nullable().openapi({ description: 'The learner the entry concerns, if any' }),
      changes: z
        .record(z.string(), Change)
        .openapi({ description: 'Fields changed, with their values before and after' }),
      details: z.record(z.string(), z.unknown()).openapi({ description: 'Other facts of the action (counts, codes)' }),
      origin: z
        .object({
          ip: z.string().nullable().openapi({ description: 'The client address, when the change came from a request' }),
          via: z.enum(o.vias),
        })
        .openapi('AuditOrigin'),
    })
    .openapi('AuditEntry');

  const range = {
    from: Instant.optional().openapi({ description: 'At or after (inclusive)' }),
    to: Instant.optional().openapi({ description: 'At or before (inclusive); a bare date includes that whole day' }),
  };
  const filters = {
    entityType: z.string().max(64).optional().openapi({ example: 'enrolment' }),
    entityId: z.string().max(64).optional(),
    actorId: z
      .string()
      .max(64)
      .optional()
      .openapi({ description: `An API key, staff user, or ${o.systemActorIds.map((id) => `\`${id}\``).join(', ')}` }),
    action: z.string().max(100).optional().openapi({ example: 'enrolment.status_changed' }),
    ...range,
  };

  return {
    AuditEntryOut,
    AuditListQuery: z.object({ ...filters, learnerId: z.string().max(64).optional() }).strict(),
    HistoryQuery: z.object(filters).strict(),
  };
}

export const ChainReportOut = z
  .object({
    ok: z.boolean(),
    checked: z.number().int().openapi({ description: 'Entries found intact before the first break (or all of them)' }),
    firstBreak: z
      .object({
        id: z.string().openapi({ description: 'The first entry that breaks the chain' }),
        seq: z.number().int().openapi({ description: "Its place in the tenant's chain, from 1" }),
        reason: z.enum(['hash_mismatch', 'link_mismatch', 'sequence_gap', 'personal_values_altered', 'head_mismatch']),
      })
      .nullable(),
  })
  .openapi('AuditChainReport');
