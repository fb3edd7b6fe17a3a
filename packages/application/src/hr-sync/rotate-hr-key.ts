import { HrSyncConfig, generateHrKey } from '@fundi/domain/hr-sync';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { inboundUrl } from './hr-inbound-url.js';
import { requireAdmin, type HrSyncDeps } from './hr-sync-ports.js';

export interface RotatedKey {
  key: string;
  keyPrefix: string;
  headerName: string;
  inboundUrl: string;
  previousKeyExpiresAt: string | null;
}

/** `POST /hr-sync/rotate-key`: a new webhook key, shown this once; only its hash is kept; the old one works 24 h. */
export class RotateHrKey {
  constructor(private readonly deps: HrSyncDeps) {}

  async execute(actor: Actor, origin: string): Promise<RotatedKey> {
    requireAdmin(actor);
    const now = this.deps.clock.now();
    const key = generateHrKey();
    const keyPrefix = key.slice(0, 8);
    return this.deps.uow.run(async (tx) => {
      const stored = (await tx.hrSyncConfigs.find(actor.tenantId)) ?? HrSyncConfig.initial(actor.tenantId, now);
      const next = HrSyncConfig.rotateKey(stored, this.deps.secrets.hash(key), keyPrefix, now);
      await tx.hrSyncConfigs.save(next);
      await recordChange(tx, actor, now, {
        action: 'hr_sync.key_rotated',
        resourceType: 'hr_sync',
        resourceId: actor.tenantId,
        details: { keyPrefix, previousKeyExpiresAt: next.previousKeyExpiresAt },
      });
      return {
        key,
        keyPrefix,
        headerName: next.headerName,
        inboundUrl: await inboundUrl(this.deps, tx, actor.tenantId, origin),
        previousKeyExpiresAt: next.previousKeyExpiresAt,
      };
    });
  }
}
