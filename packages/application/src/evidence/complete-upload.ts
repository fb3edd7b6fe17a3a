import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DomainError } from '@fundi/domain';
import { Evidence, type UploadTicketSnapshot } from '@fundi/domain/evidence';
import type { Actor } from '../common/actor.js';
import { expiredUrl, invalidUrl } from '../files/signed-url-errors.js';
import type { EvidencePorts } from './evidence-ports.js';
import { storeWithinQuota } from './evidence-quota.js';
import { commitUpload, uploadSnapshot } from './evidence-store.js';
import { UPLOAD } from './evidence-upload-tickets.js';
import { evidenceKey, type EvidenceView } from './evidence-view.js';

/** The PUT to a signed upload URL: the bytes must match the declared size; the URL works once. */
export class CompleteUpload {
  constructor(private readonly d: EvidencePorts) {}

  async execute(
    token: string,
    tenantSlug: string | null,
    source: Readable,
    ip: string | null,
  ): Promise<{ tenantId: string; evidence: EvidenceView }> {
    let ticket: UploadTicketSnapshot;
    let actor: Actor;
    try {
      const payload = this.d.signer.verify(token, UPLOAD);
      if (!payload) throw invalidUrl();
      const [tenantId, ticketId, exp] = payload.split('|');
      const found = tenantId && ticketId ? await this.d.repos.uploadTickets.findById(tenantId, ticketId) : null;
      if (!found) throw invalidUrl();
      if (tenantSlug !== null && (await this.d.repos.tenants.findById(found.tenantId))?.slug !== tenantSlug)
        throw invalidUrl();
      if (this.d.clock.now().getTime() > Number(exp)) throw expiredUrl();
      if (found.usedAt) throw invalidUrl();
      ticket = found;
      actor = { tenantId: found.tenantId, id: found.createdBy, role: 'integration', scopes: [] };
    } catch (e) {
      source.destroy();
      throw e;
    }
    // Each PUT stores under a key of its own: two PUTs racing on one URL, or several URLs out for one record
    // awaiting its file (docs/api.md, "Evidence"), never write over each other's bytes, and the one that loses
    // the commit removes only its own.
    const key = `${evidenceKey(ticket.tenantId, ticket.evidenceId, ticket.version)}-${randomBytes(8).toString('hex')}`;
    const stored = await storeWithinQuota(this.d, ticket.tenantId, key, source, ticket.size);
    const prev = await this.d.repos.evidence.findById(ticket.tenantId, ticket.evidenceId, { withDeleted: true });
    const changed =
      ticket.version > 1
        ? !prev || prev.deletedAt !== null || prev.current.version !== ticket.version - 1
        : prev !== null && (prev.deletedAt !== null || !Evidence.isAwaitingUpload(prev));
    if (changed) {
      await this.d.files.remove(key);
      if (ticket.version === 1)
        throw DomainError.conflict(
          'evidence_not_awaiting_upload',
          'The evidence changed since this upload URL was issued',
        );
      throw DomainError.conflict('revision_not_requested', 'The evidence changed since this upload URL was issued');
    }
    const e = uploadSnapshot(
      this.d,
      actor,
      ticket,
      ticket.evidenceId,
      ticket.version,
      { evidenceType: ticket.evidenceType, filename: ticket.filename },
      stored,
      key,
      prev ?? undefined,
    );
    const mode = ticket.version > 1 ? 'version' : prev ? 'first' : 'new';
    return { tenantId: ticket.tenantId, evidence: await commitUpload(this.d, actor, e, mode, ip, ticket) };
  }
}
