import type { StatementSnapshot } from '@fundi/domain/statements';
import { recordChange } from '../common/record-change.js';
import { STATEMENT_REVOKED, revokedData } from './statement-events.js';
import type { StatementPorts } from './statement-ports.js';

/**
 * After an erasure: the learner's statements are revoked, what their public pages show is emptied and their PDFs
 * (which name the learner) are removed. Run by the job the erasure queues; running it again does nothing more.
 */
export class RevokeErasedStatements {
  constructor(private readonly d: StatementPorts) {}

  async execute(tenantId: string, learnerId: string): Promise<number> {
    const d = this.d;
    const now = d.clock.now();
    const all: StatementSnapshot[] = [];
    for (let offset = 0; ; offset += 100) {
      const p = await d.repos.statements.listForLearner(tenantId, learnerId, {
        kind: 'offset',
        offset,
        limit: 100,
      });
      all.push(...p.items);
      if (!p.hasMore) break;
    }
    const ids = await d.uow.run(async (tx) => {
      const revokedIds = await tx.statements.revokeForErasedLearner(tenantId, learnerId, now.toISOString());
      for (const s of all.filter((x) => revokedIds.includes(x.id)))
        await recordChange(tx, { tenantId, id: 'system', role: 'admin', scopes: [] }, now, {
          action: STATEMENT_REVOKED,
          resourceType: 'statement',
          resourceId: s.id,
          learnerId,
          details: { reason: 'learner_erased' },
          changes: { status: { from: 'issued', to: 'revoked' } },
          events: [
            {
              type: STATEMENT_REVOKED,
              data: revokedData({
                ...s,
                revokedAt: now.toISOString(),
                revokedBy: 'system',
                revokeReason: 'learner_erased',
              }),
            },
          ],
        });
      return revokedIds;
    });
    for (const s of all) await d.files.remove(s.storageKey);
    return ids.length;
  }
}
