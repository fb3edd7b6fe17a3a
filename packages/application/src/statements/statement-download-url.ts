import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { findLearnerStatement } from './find-learner-statement.js';
import { statementBaseUrl } from './statement-base-url.js';
import { STATEMENT_DOWNLOAD, revokedFile, statementFileName } from './statement-file.js';
import type { StatementPorts } from './statement-ports.js';

const URL_TTL_MS = 3_600_000;

/**
 * `GET /learners/{id}/statements/{statementId}/download` (`getStatementDownloadUrl`): a signed URL (3600 s) to the
 * PDF, as evidence downloads answer; issuing it is audited. 409 once revoked.
 */
export class StatementDownloadUrl {
  constructor(private readonly d: StatementPorts) {}

  async execute(actor: Actor, learnerId: string, id: string, origin?: string) {
    const d = this.d;
    const s = await findLearnerStatement(d, actor, learnerId, id);
    if (s.revokedAt) throw revokedFile();
    const now = d.clock.now();
    const expiresAt = new Date(now.getTime() + URL_TTL_MS);
    const token = d.signer.sign(`${actor.tenantId}|${s.id}|${expiresAt.getTime()}`, STATEMENT_DOWNLOAD);
    await d.uow.run((tx) =>
      recordChange(tx, actor, now, {
        action: 'statement.download_url_issued',
        resourceType: 'statement',
        resourceId: s.id,
        learnerId: s.learnerId,
      }),
    );
    return {
      url: `${statementBaseUrl(d, origin)}/api/v1/files/statements/${token}`,
      expiresAt: expiresAt.toISOString(),
      filename: statementFileName(s),
      contentType: 'application/pdf',
      size: s.size,
    };
  }
}
