import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { newId } from '@fundi/domain';
import { holderOf, newVerificationCode, type StatementSnapshot } from '@fundi/domain/statements';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { gatherStatement } from './statement-content.js';
import { STATEMENT_ISSUED, issuedData } from './statement-events.js';
import type { StatementPorts } from './statement-ports.js';
import { statementBaseUrl } from './statement-base-url.js';
import { statementView, verifyUrlOf, type StatementView } from './statement-view.js';

/** Where a statement's PDF is stored. */
export const statementKey = (tenantId: string, id: string) => `t/${tenantId}/statements/${id}.pdf`;

/**
 * `POST /learners/{id}/statements` (`issueStatement`): gathers the results (409 while a module has none), lays out the PDF, stores it
 * encrypted, then records it with its SHA-256, its audit entry and `statement.issued` in one transaction. A failed
 * record removes the stored file.
 */
export class IssueStatement {
  constructor(private readonly d: StatementPorts) {}

  async execute(actor: Actor, learnerId: string, enrolmentId: string, origin?: string): Promise<StatementView> {
    const d = this.d;
    const base = statementBaseUrl(d, origin);
    const now = d.clock.now();
    const { learner, enrolment, content } = await gatherStatement(d, actor.tenantId, learnerId, enrolmentId);
    const id = newId('sor');
    const verificationCode = newVerificationCode();
    const pdf = await d.renderer.render({
      ...content,
      statementId: id,
      issuedOn: now.toISOString().slice(0, 10),
      verificationCode,
      verifyUrl: verifyUrlOf(base, verificationCode),
    });
    const s: StatementSnapshot = {
      id,
      tenantId: actor.tenantId,
      learnerId,
      enrolmentId: enrolment.id,
      programmeCode: content.programme.code,
      programmeName: content.programme.name,
      outcome: content.outcome,
      modules: content.modules,
      verificationCode,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      size: pdf.length,
      storageKey: statementKey(actor.tenantId, id),
      holder: holderOf(learner.firstName, learner.lastName),
      issuedAt: now.toISOString(),
      issuedBy: actor.id,
      revokedAt: null,
      revokedBy: null,
      revokeReason: null,
    };
    await d.files.store(s.storageKey, Readable.from([pdf]), {
      as: { contentType: 'application/pdf', kind: 'document' },
    });
    try {
      await d.uow.run(async (tx) => {
        await tx.statements.insert(s);
        await recordChange(tx, actor, now, {
          action: STATEMENT_ISSUED,
          resourceType: 'statement',
          resourceId: id,
          learnerId,
          details: { enrolmentId: enrolment.id, outcome: s.outcome, sha256: s.sha256 },
          events: [{ type: STATEMENT_ISSUED, data: issuedData(s) }],
        });
      });
    } catch (e) {
      await d.files.remove(s.storageKey);
      throw e;
    }
    return statementView(s, base);
  }
}
