import { newId } from '@fundi/domain';
import type { Actor } from './actor.js';
import type { PlatformRepos } from '@fundi/domain';

export interface ChangeRecord {
  action: string;
  resourceType: string;
  resourceId: string;
  /** Non-personal audit detail (for example the names of changed fields). */
  details?: Record<string, unknown>;
  /**
   * Events to publish with the change; each goes to the outbox in the same transaction. `subjectId` names the
   * learner whose personal data `data` holds, so that erasing the learner redacts the event (docs/api.md, "Erasure").
   */
  events?: { type: string; data: Record<string, unknown>; subjectId?: string }[];
}

/** Writes the audit entry and the outbox events of one change through the transaction's repositories. */
export async function recordChange(
  tx: Pick<PlatformRepos, 'audit' | 'outbox'>,
  actor: Actor,
  now: Date,
  change: ChangeRecord,
): Promise<void> {
  const at = now.toISOString();
  await tx.audit.record({
    id: newId('aud'),
    tenantId: actor.tenantId,
    actor: actor.id,
    action: change.action,
    resourceType: change.resourceType,
    resourceId: change.resourceId,
    at,
    details: change.details ?? {},
  });
  for (const e of change.events ?? []) {
    const subject = e.subjectId ? { subjectId: e.subjectId } : {};
    await tx.outbox.add({
      id: newId('evt'),
      tenantId: actor.tenantId,
      type: e.type,
      occurredAt: at,
      data: e.data,
      ...subject,
    });
  }
}
