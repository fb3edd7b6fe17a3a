import { DomainError } from '@fundi/domain';
import type { StatementSnapshot } from '@fundi/domain/statements';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { findLearnerStatement } from './find-learner-statement.js';
import { statementBaseUrl } from './statement-base-url.js';
import { STATEMENT_REVOKED, revokedData } from './statement-events.js';
import type { StatementPorts } from './statement-ports.js';
import { statementView, type StatementView } from './statement-view.js';

/**
 * `POST /learners/{id}/statements/{statementId}/revoke` (`revokeStatement`): admins, with a reason; audited,
 * `statement.revoked`; 409 when it already is.
 */
export class RevokeStatement {
  constructor(private readonly d: StatementPorts) {}

  async execute(actor: Actor, learnerId: string, id: string, reason: string, origin?: string): Promise<StatementView> {
    if (actor.role !== 'admin') throw DomainError.forbidden('Only an admin may revoke a statement');
    const text = reason.trim();
    if (!text) throw DomainError.invalid('reason', 'must say why the statement is revoked');
    const s = await findLearnerStatement(this.d, actor, learnerId, id);
    const now = this.d.clock.now();
    const after: StatementSnapshot = { ...s, revokedAt: now.toISOString(), revokedBy: actor.id, revokeReason: text };
    await this.d.uow.run(async (tx) => {
      if (!(await tx.statements.revoke(actor.tenantId, id, { at: after.revokedAt!, by: actor.id, reason: text })))
        throw DomainError.conflict('statement_revoked', 'The statement is already revoked');
      await recordChange(tx, actor, now, {
        action: STATEMENT_REVOKED,
        resourceType: 'statement',
        resourceId: id,
        learnerId,
        details: { reason: text },
        changes: { status: { from: 'issued', to: 'revoked' } },
        events: [{ type: STATEMENT_REVOKED, data: revokedData(after) }],
      });
    });
    return statementView(after, statementBaseUrl(this.d, origin));
  }
}
