import type { AuditRecord, AuditVia, FieldChange } from '@fundi/domain/audit';
import { actorRef, type ActorRef, type SystemActor } from '../common/actor.js';

/** What personal values of an erased learner show as. */
export const ERASED = '[erased]';

/** An audit entry as `GET /audit` answers it (docs/api.md, "Audit trail"). */
export interface AuditView {
  id: string;
  at: string;
  actor: ActorRef;
  action: string;
  entityType: string;
  entityId: string;
  learnerId: string | null;
  changes: Record<string, FieldChange>;
  details: Record<string, unknown>;
  origin: { ip: string | null; via: AuditVia };
}

/**
 * Entries written before origins were kept: where they came from follows from who made them (a staff user, one of
 * the service's own actors as `system` declares them, else an API key).
 */
function storedVia(actor: string, system: ReadonlyMap<string, SystemActor>): AuditVia {
  if (actor.startsWith('usr_')) return 'dashboard';
  return system.get(actor)?.origin.via ?? 'api';
}

/**
 * The view of one entry: personal values merged in while kept, `[erased]` once their learner is erased. `system`:
 * the service's own actors (`systemActorsOf`).
 */
export function auditView(
  r: AuditRecord,
  actors: ReadonlyMap<string, ActorRef>,
  system: ReadonlyMap<string, SystemActor>,
): AuditView {
  const changes: Record<string, FieldChange> = { ...(r.changes ?? {}) };
  for (const f of r.personalFields) changes[f] = r.personalValues?.[f] ?? { from: ERASED, to: ERASED };
  return {
    id: r.id,
    at: r.at,
    actor: actors.get(r.actor) ?? actorRef(r.actor, null, system),
    action: r.action,
    entityType: r.resourceType,
    entityId: r.resourceId,
    learnerId: r.learnerId ?? null,
    changes,
    details: r.details,
    origin: { ip: r.ip ?? null, via: r.via ?? storedVia(r.actor, system) },
  };
}
