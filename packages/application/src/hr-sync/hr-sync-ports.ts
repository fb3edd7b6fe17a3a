import { DomainError, type PlatformRepos, type SecretGenerator, type TenantRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';
import type { WebhookRepos } from '@fundi/domain/webhooks';
import type { HrSyncRepos } from '@fundi/domain/hr-sync';
import type { Actor, SystemActor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import type { WebhookDeps } from '../webhooks/webhook-ports.js';

export type HrSyncAllRepos = HrSyncRepos & LearnerRepos & TrainingRepos & TenantRepos & PlatformRepos & WebhookRepos;

/**
 * What HR sync needs: its own repositories and those of the capabilities it drives (learners and enrolments through
 * their use cases, the webhook subscription that carries outbound events), the key hash, and the webhook rules
 * (secret box, URL policy, address check) for `outboundUrl`.
 */
export type HrSyncDeps = CoreDeps<HrSyncAllRepos> & {
  secrets: SecretGenerator;
  /** `FUNDI_PUBLIC_URL`: the base of `inboundUrl` ('' uses the origin of the request). */
  publicUrl: string;
} & Pick<WebhookDeps, 'box' | 'policy' | 'receiverCheck'>;

/**
 * The actor HR inbound events act as, which HR sync declares (`offers.systemActor`): audit entries and enrolment
 * history name it `HR sync`, and its changes come from the origin `hr-sync`, between the imports' and the worker's
 * in the list of origins.
 */
export const hrSystemActor: SystemActor = { id: 'hr-sync', name: 'HR sync', origin: { via: 'hr-sync', order: 50 } };

/**
 * Inbound events act as this actor, from the address of the HR system's call (the audit entry's `origin.ip`).
 */
export function hrActor(tenantId: string, ip: string | null = null): Actor {
  return { tenantId, id: hrSystemActor.id, role: 'integration', scopes: [], via: hrSystemActor.origin.via, ip };
}

/** The HR configuration and its logs are for administrators only (a key of the admin role). */
export function requireAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw DomainError.forbidden('HR sync is managed by administrators (an admin key)');
}
