import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import type { StatementSnapshot } from '@fundi/domain/statements';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { issueStatement } from './issue-statement.js';
import type { StatementPorts } from './statement-ports.js';
import { openStatementDownload, statementDownloadUrl } from './statement-downloads.js';
import { revokeErasedStatements } from './erased-learner-statements.js';
import { STATEMENT_REVOKED, revokedData } from './statement-events.js';
import { statementView, type StatementView } from './statement-view.js';

/** Statements of Results: issue, read, download, revoke (docs/api.md, "Statements of Results"). */
export class StatementService {
  constructor(private readonly d: StatementPorts) {}

  private base(origin?: string) {
    return (this.d.settings.publicUrl || origin || '').replace(/\/+$/, '');
  }

  /** `POST /learners/{id}/statements` (`issueStatement`). */
  issue(actor: Actor, learnerId: string, enrolmentId: string, origin?: string): Promise<StatementView> {
    return issueStatement(this.d, actor, learnerId, enrolmentId, this.base(origin));
  }

  async list(actor: Actor, learnerId: string, page: PageRequest, origin?: string): Promise<Page<StatementView>> {
    const found = await this.d.repos.statements.listForLearner(actor.tenantId, learnerId, page);
    if (found.total === 0 && !(await this.d.repos.learners.findById(actor.tenantId, learnerId)))
      throw DomainError.notFound('learner', learnerId);
    return { ...found, items: found.items.map((s) => statementView(s, this.base(origin))) };
  }

  private async find(actor: Actor, learnerId: string, id: string): Promise<StatementSnapshot> {
    const s = await this.d.repos.statements.findById(actor.tenantId, id);
    if (!s || s.learnerId !== learnerId) throw DomainError.notFound('statement', id);
    return s;
  }

  async get(actor: Actor, learnerId: string, id: string, origin?: string): Promise<StatementView> {
    return statementView(await this.find(actor, learnerId, id), this.base(origin));
  }

  /** A signed URL (3600 s) to the PDF (`statementDownloadUrl`); 409 once revoked. */
  async downloadUrl(actor: Actor, learnerId: string, id: string, origin?: string) {
    return statementDownloadUrl(this.d, actor, await this.find(actor, learnerId, id), this.base(origin));
  }

  /** Opens a signed download URL (`openStatementDownload`). */
  openDownload(token: string, tenantSlug: string | null, ip: string) {
    return openStatementDownload(this.d, token, tenantSlug, ip);
  }

  /** Revokes a statement (admins, with a reason): audited, `statement.revoked`; 409 when it already is. */
  async revoke(actor: Actor, learnerId: string, id: string, reason: string, origin?: string): Promise<StatementView> {
    if (actor.role !== 'admin') throw DomainError.forbidden('Only an admin may revoke a statement');
    const text = reason.trim();
    if (!text) throw DomainError.invalid('reason', 'must say why the statement is revoked');
    const s = await this.find(actor, learnerId, id);
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
    return statementView(after, this.base(origin));
  }

  /** After an erasure: the learner's statements are revoked and their files removed (`revokeErasedStatements`). */
  revokeForErasedLearner(tenantId: string, learnerId: string): Promise<number> {
    return revokeErasedStatements(this.d, tenantId, learnerId);
  }
}
