import { systemActor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { ExportPorts } from './export-ports.js';

/** Removes the files of exports past their retention; the records stay with `purgedAt`. Answers how many. */
export class PurgeExpiredExports {
  constructor(private readonly d: ExportPorts) {}

  async execute(): Promise<number> {
    const now = this.d.clock.now();
    let purged = 0;
    for (;;) {
      const due = await this.d.repos.exports.expired(now.toISOString(), 100);
      if (!due.length) return purged;
      for (const e of due) {
        if (e.storageKey) await this.d.files.remove(e.storageKey);
        await this.d.uow.run(async (tx) => {
          await tx.exports.update({ ...e, purgedAt: now.toISOString(), purgeReason: 'expired' });
          await recordChange(tx, systemActor(e.tenantId), now, {
            action: 'export.purged',
            resourceType: 'export',
            resourceId: e.id,
            details: { reason: 'expired' },
          });
        });
        purged++;
      }
    }
  }
}
