import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DomainError, Evidence, newId, type EvidenceSnapshot, type UploadTicketSnapshot } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { expiredUrl, invalidUrl } from './evidence-signed-urls.js';
import { locateUpload, type UploadRequest } from './evidence-location.js';
import type { EvidencePorts } from './evidence-ports.js';
import { storeWithinQuota } from './evidence-quota.js';
import { commitUpload, uploadSnapshot } from './evidence-store.js';
import { UPLOAD, issueUploadUrl, parseSize, type UploadGrant } from './evidence-upload-tickets.js';
import { evidenceKey, type EvidenceView } from './evidence-view.js';

/**
 * Uploads through signed URLs (docs/api.md, "Evidence"): a declared upload gets a single-use URL for one version
 * (a new record, a requested revision, or a record awaiting its file), and the PUT to it stores and commits the
 * bytes once; a URL whose evidence changed meanwhile is a conflict and leaves nothing stored.
 */
export class EvidenceUploadUrls {
  constructor(private readonly d: EvidencePorts) {}

  /** Form A: declares an upload and answers a signed, single-use URL to PUT the bytes to. */
  async requestUpload(actor: Actor, input: UploadRequest, evidenceId?: string): Promise<UploadGrant> {
    const now = this.d.clock.now();
    const errors: { field: string; message: string }[] = [];
    let size = 0;
    try {
      size = parseSize(input.size);
    } catch (e) {
      errors.push(...(e as DomainError).details);
    }
    let prev: EvidenceSnapshot | null = null;
    if (evidenceId) {
      prev = await this.d.repos.evidence.findById(actor.tenantId, evidenceId);
      if (!prev) throw DomainError.notFound('evidence', evidenceId);
      Evidence.assertAcceptsVersion(prev);
    }
    let parsed: ReturnType<typeof Evidence.parseUpload> | null = null;
    try {
      parsed = Evidence.parseUpload({
        evidenceType: prev ? prev.evidenceType : input.evidenceType,
        filename: input.filename,
      });
    } catch (e) {
      errors.push(...(e as DomainError).details);
    }
    if (errors.length || !parsed) throw DomainError.invalidMany(errors);
    const where = prev ?? (await locateUpload(this.d.repos, actor, input));
    return issueUploadUrl(this.d, actor, now, {
      evidenceId: prev?.id ?? newId('evd', now.getTime()),
      version: prev ? prev.current.version + 1 : 1,
      learnerId: where.learnerId,
      enrolmentId: where.enrolmentId,
      moduleId: where.moduleId,
      evidenceType: parsed.evidenceType,
      filename: parsed.filename,
      size,
    });
  }

  /**
   * The upload URL of a record awaiting its file (made by an `evidence` import): the same grant as
   * `requestUpload`, for version 1 of this record; the PUT makes it `submitted`. The file name defaults to the
   * record's.
   */
  async requestAwaitedUpload(actor: Actor, id: string, input: { size?: unknown; filename?: unknown }) {
    const now = this.d.clock.now();
    const e = await this.d.repos.evidence.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('evidence', id);
    const errors: { field: string; message: string }[] = [];
    let size = 0;
    let filename = e.current.filename;
    try {
      size = parseSize(input.size);
    } catch (err) {
      errors.push(...(err as DomainError).details);
    }
    try {
      if (input.filename !== undefined)
        filename = Evidence.parseUpload({ evidenceType: e.evidenceType, filename: input.filename }).filename;
    } catch (err) {
      errors.push(...(err as DomainError).details);
    }
    if (errors.length) throw DomainError.invalidMany(errors);
    Evidence.assertAwaitingUpload(e);
    return issueUploadUrl(this.d, actor, now, {
      evidenceId: e.id,
      version: 1,
      learnerId: e.learnerId,
      enrolmentId: e.enrolmentId,
      moduleId: e.moduleId,
      evidenceType: e.evidenceType,
      filename,
      size,
    });
  }

  /** The PUT to a signed upload URL: the bytes must match the declared size; the URL works once. */
  async completeUpload(
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
