import { DomainError } from '@fundi/domain';
import { recordChange } from '../common/record-change.js';
import { expiredUrl, invalidUrl } from '../files/signed-url-errors.js';
import { STATEMENT_DOWNLOAD, revokedFile, statementFileName } from './statement-file.js';
import type { StatementPorts } from './statement-ports.js';

/**
 * `GET /files/statements/{token}` (`downloadSignedStatement`): opens a signed download URL; checks signature, tenant
 * and expiry, audits the download.
 */
export class OpenStatementDownload {
  constructor(private readonly d: StatementPorts) {}

  async execute(token: string, tenantSlug: string | null, ip: string) {
    const d = this.d;
    const [tenantId, id, exp] = d.signer.verify(token, STATEMENT_DOWNLOAD)?.split('|') ?? [];
    if (!tenantId || !id || !exp) throw invalidUrl();
    if (tenantSlug !== null && (await d.repos.tenants.findById(tenantId))?.slug !== tenantSlug) throw invalidUrl();
    const now = d.clock.now();
    if (now.getTime() > Number(exp)) throw expiredUrl();
    const s = await d.repos.statements.findById(tenantId, id);
    if (!s) throw DomainError.notFound('statement', id);
    if (s.revokedAt) throw revokedFile();
    await d.uow.run((tx) =>
      recordChange(tx, { tenantId, id: 'signed-url', role: 'viewer', scopes: [], ip }, now, {
        action: 'statement.downloaded',
        resourceType: 'statement',
        resourceId: id,
        learnerId: s.learnerId,
      }),
    );
    return {
      contentType: 'application/pdf',
      size: s.size,
      filename: statementFileName(s),
      etag: s.sha256,
      open: (range?: { start: number; end: number }) => d.files.open(s.storageKey, range),
    };
  }
}
