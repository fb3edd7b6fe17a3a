import { newId, type DomainEvent, type PlatformRepos } from '@fundi/domain';
import type { FieldChange } from '@fundi/domain/audit';
import { viaOf, type Actor } from './actor.js';

export interface ChangeRecord {
  action: string;
  resourceType: string;
  resourceId: string;
  /** Non-personal audit detail (for example the names of changed fields). */
  details?: Record<string, unknown>;
  /** The learner the change concerns; a change of a `learner` concerns that learner without saying so. */
  learnerId?: string;
  /** Non-personal fields changed, with their values (shown by `GET /audit`). */
  changes?: Record<string, FieldChange>;
  /** Personal fields changed, with their values: kept apart, and removed when the learner is erased. */
  personal?: Record<string, FieldChange>;
  /**
   * Events to publish with the change; each goes to the outbox in the same transaction. `subjectId` names the
   * learner whose personal data `data` holds, so that erasing the learner redacts the event (docs/api.md, "Erasure").
   */
  events?: { type: string; data: Record<string, unknown>; subjectId?: string }[];
}

/**
 * Writes the audit entry and the outbox events of one change through the transaction's audit log, which writes the
 * events with the entry (on Postgres in the append's one statement: docs/performance.md, "Writes and lists on
 * Postgres").
 */
export async function recordChange(
  tx: Pick<PlatformRepos, 'audit'>,
  actor: Actor,
  now: Date,
  change: ChangeRecord,
): Promise<void> {
  const at = now.toISOString();
  const events: DomainEvent[] = [];
  for (const e of change.events ?? []) {
    const event: DomainEvent = {
      id: newId('evt'),
      tenantId: actor.tenantId,
      type: e.type,
      occurredAt: at,
      data: e.data,
    };
    if (e.subjectId) event.subjectId = e.subjectId;
    events.push(event);
  }
  await tx.audit.record(
    {
      id: newId('aud'),
      tenantId: actor.tenantId,
      actor: actor.id,
      action: change.action,
      resourceType: change.resourceType,
      resourceId: change.resourceId,
      at,
      details: change.details ?? {},
      learnerId: change.learnerId ?? (change.resourceType === 'learner' ? change.resourceId : null),
      ...(change.changes ? { changes: change.changes } : {}),
      ...(change.personal && Object.keys(change.personal).length > 0 ? { personal: change.personal } : {}),
      via: viaOf(actor),
      ip: actor.ip ?? null,
    },
    events,
  );
}
