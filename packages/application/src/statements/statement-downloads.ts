import { DomainError } from '@fundi/domain';
import type { StatementSnapshot } from '@fundi/domain/statements';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { expiredUrl, invalidUrl } from '../evidence/evidence-signed-urls.js';
import type { StatementPorts } from './statement-ports.js';

const DOWNLOAD = 'statement-download';
const URL_TTL_MS = 3_600_000;

const revoked = () => DomainError.conflict('statement_revoked', 'The statement is revoked; its file is not served');
const fileName = (s: StatementSnapshot) => `statement-of-results-${s.programmeCode}-${s.issuedAt.slice(0, 10)}.pdf`;

/** A signed URL (3600 s) to the PDF, as evidence downloads answer; issuing it is audited. 409 once revoked. */
export async function statementDownloadUrl(d: StatementPorts, actor: Actor, s: StatementSnapshot, base: string) {
  if (s.revokedAt) throw revoked();
  const now = d.clock.now();
  const expiresAt = new Date(now.getTime() + URL_TTL_MS);
  const token = d.signer.sign(`${actor.tenantId}|${s.id}|${expiresAt.getTime()}`, DOWNLOAD);
  await d.uow.run((tx) =>
    recordChange(tx, actor, now, {
      action: 'statement.download_url_issued',
      resourceType: 'statement',
      resourceId: s.id,
      learnerId: s.learnerId,
    }),
  );
  return {
    url: `${base}/api/v1/files/statements/${token}`,
    expiresAt: expiresAt.toISOString(),
    filename: fileName(s),
    contentType: 'application/pdf',
    size: s.size,
  };
}

/** Opens a signed download URL: checks signature, tenant and expiry, audits the download. */
export async function openStatementDownload(d: StatementPorts, token: string, tenantSlug: string | null, ip: string) {
  const [tenantId, id, exp] = d.signer.verify(token, DOWNLOAD)?.split('|') ?? [];
  if (!tenantId || !id || !exp) throw invalidUrl();
  if (tenantSlug !== null && (await d.repos.tenants.findById(tenantId))?.slug !== tenantSlug) throw invalidUrl();
  const now = d.clock.now();
  if (now.getTime() > Number(exp)) throw expiredUrl();
  const s = await d.repos.statements.findById(tenantId, id);
  if (!s) throw DomainError.notFound('statement', id);
  if (s.revokedAt) throw revoked();
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
    filename: fileName(s),
    etag: s.sha256,
    open: (range?: { start: number; end: number }) => d.files.open(s.storageKey, range),
  };
}
