import type { Readable } from 'node:stream';
import {
  DEFAULT_RETENTION_YEARS,
  DomainError,
  EVIDENCE_RESTORE_DAYS,
  Evidence,
  SIGNED_URL_SECONDS,
  Tenant,
  newId,
  type EvidenceFilter,
  type EvidenceSnapshot,
  type EvidenceStatus,
  type EvidenceType,
  type EvidenceVersionSnapshot,
  type Page,
  type PageRequest,
  type UploadTicketSnapshot,
  type StorageDay,
} from '@fundi/domain';
import { locateEnrolment } from '../assessments/locate-enrolment.js';
import { jobType } from '../jobs/job-definition.js';
import type { Actor } from '../shared/actor.js';
import { recordChange } from '../shared/record-change.js';
import { utcDay } from '../tenants/request-meter.js';
import type { EvidencePorts, StoredFile } from './evidence-ports.js';

/** The largest file of any kind (video and archives); each kind's own limit is applied to the sniffed bytes. */
export const MAX_EVIDENCE_BYTES = 100 * 1024 * 1024;
const UPLOAD = 'evidence-upload';
const DOWNLOAD = 'evidence-download';
const BUNDLE = 'evidence-bundle';
const DAY_MS = 86_400_000;
/** Outbox event when evidence storage crosses 80% or 90% of the quota (internal: not a webhook event type). */
export const QUOTA_WARNING_EVENT = 'tenant.quota_warning';

export interface EvidenceView {
  id: string;
  learnerId: string;
  moduleId: string;
  enrolmentId: string;
  evidenceType: EvidenceType;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  status: EvidenceVersionSnapshot['status'];
  version: number;
  description: string | null;
  uploadedBy: string;
  createdAt: string;
  updatedAt: string;
  reviewedAt: string | null;
  reviewedBy: string | null;
  feedback: string | null;
  deletedAt: string | null;
}

export interface EvidenceVersionView {
  version: number;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  status: EvidenceStatus;
  uploadedBy: string;
  createdAt: string;
  reviewedAt: string | null;
  reviewedBy: string | null;
  feedback: string | null;
}

export function evidenceView(e: EvidenceSnapshot): EvidenceView {
  const v = e.current;
  return {
    id: e.id,
    learnerId: e.learnerId,
    moduleId: e.moduleId,
    enrolmentId: e.enrolmentId,
    evidenceType: e.evidenceType,
    filename: v.filename,
    contentType: v.contentType,
    size: v.size,
    sha256: v.sha256,
    status: v.status,
    version: v.version,
    description: e.description,
    uploadedBy: v.uploadedBy,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    reviewedAt: v.reviewedAt,
    reviewedBy: v.reviewedBy,
    feedback: v.feedback,
    deletedAt: e.deletedAt,
  };
}

function versionView(v: EvidenceVersionSnapshot): EvidenceVersionView {
  return {
    version: v.version,
    filename: v.filename,
    contentType: v.contentType,
    size: v.size,
    sha256: v.sha256,
    // Stored versions are never `awaiting_upload` (that is the stand-in of a record without a file).
    status: v.status as EvidenceStatus,
    uploadedBy: v.uploadedBy,
    createdAt: v.createdAt,
    reviewedAt: v.reviewedAt,
    reviewedBy: v.reviewedBy,
    feedback: v.feedback,
  };
}

/** Where a version's encrypted bytes live in the file store. */
export function evidenceKey(tenantId: string, evidenceId: string, version: number): string {
  return `t/${tenantId}/evidence/${evidenceId}/v${version}`;
}

const invalidUrl = () =>
  new DomainError(
    'forbidden',
    'signed_url_invalid',
    'The signed URL is not valid: it was altered, is not for this tenant, or was used already',
  );
const expiredUrl = () =>
  new DomainError('forbidden', 'signed_url_expired', 'The signed URL has expired: ask for a new one');
const quotaExceeded = (quota: number) =>
  new DomainError(
    'forbidden',
    'storage_quota_exceeded',
    `The tenant's storage quota of ${quota} bytes would be exceeded`,
    [],
    { quota },
  );

export interface UploadRequest {
  learnerId?: unknown;
  moduleId?: unknown;
  enrolmentId?: unknown;
  evidenceType?: unknown;
  filename?: unknown;
  contentType?: unknown;
  size?: unknown;
}

export interface UploadGrant {
  evidenceId: string;
  version: number;
  uploadUrl: string;
  method: 'PUT';
  expiresAt: string;
}

export interface DownloadGrant {
  url: string;
  expiresAt: string;
  filename: string;
  contentType: string;
  size: number;
}

/** A file to send: what the HTTP layer needs for headers and ranges. */
export interface EvidenceFileAnswer {
  contentType: string;
  size: number;
  filename: string;
  etag: string;
  open(range?: { start: number; end: number }): Promise<Readable>;
}

export interface UsageView {
  bytesUsed: number;
  quotaBytes: number | null;
  files: number;
  percentUsed: number | null;
  /** Authenticated requests of all the tenant's keys since 00:00 UTC. */
  requestsToday: number;
}

/** The job that purges evidence deleted more than 30 days ago (recurring). */
export const PURGE_DELETED_EVIDENCE = jobType<Record<string, never>>('evidence.purge_deleted', 'long');
/** The job that purges evidence past its retention (recurring, daily). */
export const PURGE_RETAINED_EVIDENCE = jobType<Record<string, never>>('evidence.purge_retention', 'long');
/** The daily snapshot of every tenant's storage use (the dashboard's usage chart). */
export const SNAPSHOT_STORAGE_USE = jobType<Record<string, never>>('evidence.snapshot_storage_use', 'long');
/** The job that removes an erased learner's evidence, bytes and records. */
export const ERASE_LEARNER_EVIDENCE = jobType<{ tenantId: string; learnerId: string }>(
  'evidence.erase_learner',
  'short',
);

/** Evidence files (docs/api.md, "Evidence"): uploads, review with versions, downloads, deletion, usage. */
export class EvidenceService {
  constructor(private readonly d: EvidencePorts) {}

  private now(): Date {
    return this.d.clock.now();
  }

  private async located(actor: Actor, input: { learnerId?: unknown; moduleId?: unknown; enrolmentId?: unknown }) {
    const errors: { field: string; message: string }[] = [];
    if (typeof input.learnerId !== 'string' || input.learnerId === '')
      errors.push({ field: 'learnerId', message: 'is required' });
    if (typeof input.moduleId !== 'string' || input.moduleId === '')
      errors.push({ field: 'moduleId', message: 'is required (the module code)' });
    if (input.enrolmentId !== undefined && typeof input.enrolmentId !== 'string')
      errors.push({ field: 'enrolmentId', message: 'must be a string' });
    if (errors.length) throw DomainError.invalidMany(errors);
    const learnerId = input.learnerId as string;
    const moduleId = input.moduleId as string;
    const learner = await this.d.repos.learners.findById(actor.tenantId, learnerId);
    if (!learner) throw DomainError.invalid('learnerId', 'unknown learner', 'unknown_learner');
    try {
      const { enrolment } = await locateEnrolment(
        this.d.repos,
        actor.tenantId,
        learnerId,
        moduleId,
        input.enrolmentId as string | undefined,
      );
      return { learnerId, moduleId, enrolmentId: enrolment.id };
    } catch (e) {
      if (e instanceof DomainError && e.details[0]?.field === 'moduleCode')
        throw DomainError.invalid('moduleId', e.details[0].message, e.code);
      throw e;
    }
  }

  private async quota(tenantId: string): Promise<{ used: number; quota: number | null }> {
    const tenant = await this.d.repos.tenants.findById(tenantId);
    if (!tenant) throw DomainError.notFound('tenant', tenantId);
    const quota = Tenant.limits(tenant).storageBytes;
    return { used: (await this.d.repos.evidence.usage(tenantId)).bytes, quota };
  }

  /** Stores the bytes under `key` within the quota; removes them again when anything after fails. */
  private async storeWithinQuota(
    tenantId: string,
    key: string,
    source: Readable,
    expectSize?: number,
  ): Promise<StoredFile> {
    const { used, quota } = await this.quota(tenantId);
    if (quota !== null && used + (expectSize ?? 1) > quota) {
      source.destroy();
      throw quotaExceeded(quota);
    }
    const room = quota === null ? MAX_EVIDENCE_BYTES : Math.min(MAX_EVIDENCE_BYTES, quota - used);
    try {
      return await this.d.files.store(key, source, {
        maxBytes: room,
        ...(expectSize !== undefined ? { expectSize } : {}),
      });
    } catch (e) {
      if (quota !== null && room < MAX_EVIDENCE_BYTES && e instanceof DomainError && e.code === 'payload_too_large')
        throw quotaExceeded(quota);
      throw e;
    }
  }

  /**
   * Commits a stored file as new evidence, a new version, or the first file of a record awaiting it (`first`:
   * stored as a version, announced like new evidence), with its event, checking the quota again.
   */
  private async commit(
    actor: Actor,
    e: EvidenceSnapshot,
    mode: 'new' | 'version' | 'first',
    ip: string | null,
    ticket?: UploadTicketSnapshot,
  ): Promise<EvidenceView> {
    const now = this.now();
    const before = await this.quota(actor.tenantId);
    try {
      await this.d.uow.run(async (tx) => {
        if (ticket && !(await tx.uploadTickets.consume(actor.tenantId, ticket.id, now.toISOString())))
          throw invalidUrl();
        const usage = await tx.evidence.usage(actor.tenantId);
        if (before.quota !== null && usage.bytes + e.current.size > before.quota) throw quotaExceeded(before.quota);
        if (mode === 'new') await tx.evidence.insert(e);
        else await tx.evidence.addVersion(e);
        await recordChange(tx, actor, now, {
          action: mode === 'version' ? 'evidence.version_uploaded' : 'evidence.uploaded',
          resourceType: 'evidence',
          resourceId: e.id,
          details: { version: e.current.version, size: e.current.size, contentType: e.current.contentType, ip },
          events: [
            {
              type: 'evidence.uploaded',
              data: {
                evidenceId: e.id,
                learnerId: e.learnerId,
                moduleId: e.moduleId,
                enrolmentId: e.enrolmentId,
                evidenceType: e.evidenceType,
                filename: e.current.filename,
                contentType: e.current.contentType,
                size: e.current.size,
                version: e.current.version,
              },
              subjectId: e.learnerId,
            },
          ],
        });
        if (before.quota !== null) {
          const after = usage.bytes + e.current.size;
          for (const pct of [90, 80]) {
            const line = (before.quota * pct) / 100;
            if (usage.bytes < line && after >= line) {
              await tx.tenantAlerts.add({
                id: newId('alr'),
                tenantId: actor.tenantId,
                kind: `storage_${pct}`,
                createdAt: now.toISOString(),
                readAt: null,
                message: `Evidence storage has reached ${pct}% of the quota (${after} of ${before.quota} bytes)`,
              });
              await recordChange(tx, actor, now, {
                action: 'usage.threshold_crossed',
                resourceType: 'tenant',
                resourceId: actor.tenantId,
                details: { percent: pct, bytes: after, quota: before.quota },
                // Internal event (not a webhook event type): the notifications' quota warning reacts to it.
                events: [{ type: QUOTA_WARNING_EVENT, data: { percent: pct, bytes: after, quota: before.quota } }],
              });
              break;
            }
          }
        }
      });
    } catch (err) {
      await this.d.files.remove(e.current.storageKey).catch(() => {});
      throw err;
    }
    return evidenceView(e);
  }

  private snapshotFor(
    actor: Actor,
    where: { learnerId: string; moduleId: string; enrolmentId: string },
    id: string,
    version: number,
    parsed: { evidenceType: EvidenceSnapshot['evidenceType']; filename: string },
    stored: StoredFile,
    key: string,
    prev?: EvidenceSnapshot,
  ): EvidenceSnapshot {
    const at = this.now().toISOString();
    const current: EvidenceVersionSnapshot = {
      tenantId: actor.tenantId,
      evidenceId: id,
      version,
      filename: parsed.filename,
      contentType: stored.contentType,
      size: stored.size,
      sha256: stored.sha256,
      storageKey: key,
      uploadedBy: actor.id,
      createdAt: at,
      status: 'submitted',
      reviewedAt: null,
      reviewedBy: null,
      feedback: null,
    };
    if (prev) return { ...prev, updatedAt: at, current };
    return {
      id,
      tenantId: actor.tenantId,
      learnerId: where.learnerId,
      enrolmentId: where.enrolmentId,
      moduleId: where.moduleId,
      evidenceType: parsed.evidenceType,
      createdAt: at,
      updatedAt: at,
      deletedAt: null,
      description: null,
      current,
    };
  }

  /** Form B: multipart upload of a new piece of evidence. */
  async upload(
    actor: Actor,
    fields: UploadRequest,
    file: { stream: Readable; filename: string | null },
    ip: string | null = null,
  ): Promise<EvidenceView> {
    let parsed: ReturnType<typeof Evidence.parseUpload>;
    let where: Awaited<ReturnType<EvidenceService['located']>>;
    try {
      parsed = Evidence.parseUpload({
        evidenceType: fields.evidenceType,
        filename: fields.filename ?? file.filename ?? undefined,
      });
      where = await this.located(actor, fields);
    } catch (e) {
      file.stream.destroy();
      throw e;
    }
    const id = newId('evd', this.now().getTime());
    const key = evidenceKey(actor.tenantId, id, 1);
    const stored = await this.storeWithinQuota(actor.tenantId, key, file.stream);
    return this.commit(actor, this.snapshotFor(actor, where, id, 1, parsed, stored, key), 'new', ip);
  }

  /** A new version of evidence whose revision was requested (multipart, both forms). */
  async uploadVersion(
    actor: Actor,
    id: string,
    file: { stream: Readable; filename: string | null },
    filename?: unknown,
    ip: string | null = null,
  ): Promise<EvidenceView> {
    let prev: EvidenceSnapshot;
    let parsedName: string;
    try {
      const found = await this.d.repos.evidence.findById(actor.tenantId, id);
      if (!found) throw DomainError.notFound('evidence', id);
      Evidence.assertAcceptsVersion(found);
      prev = found;
      parsedName = Evidence.parseUpload({
        evidenceType: found.evidenceType,
        filename: filename ?? file.filename ?? undefined,
      }).filename;
    } catch (e) {
      file.stream.destroy();
      throw e;
    }
    const version = prev.current.version + 1;
    const key = evidenceKey(actor.tenantId, id, version);
    const stored = await this.storeWithinQuota(actor.tenantId, key, file.stream);
    return this.commit(
      actor,
      this.snapshotFor(
        actor,
        prev,
        id,
        version,
        { evidenceType: prev.evidenceType, filename: parsedName },
        stored,
        key,
        prev,
      ),
      'version',
      ip,
    );
  }

  private grantUpload(t: UploadTicketSnapshot): UploadGrant {
    const payload = `${t.tenantId}|${t.id}|${Date.parse(t.expiresAt)}`;
    return {
      evidenceId: t.evidenceId,
      version: t.version,
      uploadUrl: `${this.d.settings.publicUrl}/api/v1/files/uploads/${this.d.signer.sign(payload, UPLOAD)}`,
      method: 'PUT',
      expiresAt: t.expiresAt,
    };
  }

  private parseSize(value: unknown): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_EVIDENCE_BYTES) {
      throw DomainError.invalid('size', `must be the file's size in bytes, 1 to ${MAX_EVIDENCE_BYTES}`);
    }
    return value;
  }

  /** Form A: declares an upload and answers a signed, single-use URL to PUT the bytes to. */
  async requestUpload(actor: Actor, input: UploadRequest, evidenceId?: string): Promise<UploadGrant> {
    const now = this.now();
    const errors: { field: string; message: string }[] = [];
    let size = 0;
    try {
      size = this.parseSize(input.size);
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
    const where = prev ?? (await this.located(actor, input));
    const { used, quota } = await this.quota(actor.tenantId);
    if (quota !== null && used + size > quota) throw quotaExceeded(quota);
    const ticket: UploadTicketSnapshot = {
      id: newId('upl', now.getTime()),
      tenantId: actor.tenantId,
      evidenceId: prev?.id ?? newId('evd', now.getTime()),
      version: prev ? prev.current.version + 1 : 1,
      learnerId: where.learnerId,
      enrolmentId: where.enrolmentId,
      moduleId: where.moduleId,
      evidenceType: parsed.evidenceType,
      filename: parsed.filename,
      size,
      createdBy: actor.id,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + SIGNED_URL_SECONDS * 1000).toISOString(),
      usedAt: null,
    };
    await this.d.uow.run(async (tx) => {
      await tx.uploadTickets.insert(ticket);
      await recordChange(tx, actor, now, {
        action: 'evidence.upload_url_issued',
        resourceType: 'evidence',
        resourceId: ticket.evidenceId,
        details: { version: ticket.version, size },
      });
    });
    return this.grantUpload(ticket);
  }

  /**
   * The upload URL of a record awaiting its file (made by an `evidence` import): the same grant as
   * `requestUpload`, for version 1 of this record; the PUT makes it `submitted`. The file name defaults to the
   * record's.
   */
  async requestAwaitedUpload(actor: Actor, id: string, input: { size?: unknown; filename?: unknown }) {
    const now = this.now();
    const e = await this.d.repos.evidence.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('evidence', id);
    const errors: { field: string; message: string }[] = [];
    let size = 0;
    let filename = e.current.filename;
    try {
      size = this.parseSize(input.size);
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
    const { used, quota } = await this.quota(actor.tenantId);
    if (quota !== null && used + size > quota) throw quotaExceeded(quota);
    const ticket: UploadTicketSnapshot = {
      id: newId('upl', now.getTime()),
      tenantId: actor.tenantId,
      evidenceId: e.id,
      version: 1,
      learnerId: e.learnerId,
      enrolmentId: e.enrolmentId,
      moduleId: e.moduleId,
      evidenceType: e.evidenceType,
      filename,
      size,
      createdBy: actor.id,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + SIGNED_URL_SECONDS * 1000).toISOString(),
      usedAt: null,
    };
    await this.d.uow.run(async (tx) => {
      await tx.uploadTickets.insert(ticket);
      await recordChange(tx, actor, now, {
        action: 'evidence.upload_url_issued',
        resourceType: 'evidence',
        resourceId: e.id,
        details: { version: 1, size },
      });
    });
    return this.grantUpload(ticket);
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
      if (this.now().getTime() > Number(exp)) throw expiredUrl();
      if (found.usedAt) throw invalidUrl();
      ticket = found;
      actor = { tenantId: found.tenantId, id: found.createdBy, role: 'integration', scopes: [] };
    } catch (e) {
      source.destroy();
      throw e;
    }
    // A first version may have a record already: one awaiting its file (docs/api.md, "Evidence"). Several URLs
    // may be out for it, so each stores under its own key: the upload that loses cannot remove the winner's bytes.
    const awaited =
      ticket.version === 1 && (await this.d.repos.evidence.findById(ticket.tenantId, ticket.evidenceId)) !== null;
    const key = `${evidenceKey(ticket.tenantId, ticket.evidenceId, ticket.version)}${awaited ? `-${ticket.id}` : ''}`;
    const stored = await this.storeWithinQuota(ticket.tenantId, key, source, ticket.size);
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
    const e = this.snapshotFor(
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
    return { tenantId: ticket.tenantId, evidence: await this.commit(actor, e, mode, ip, ticket) };
  }

  async get(actor: Actor, id: string): Promise<EvidenceView> {
    const e = await this.d.repos.evidence.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('evidence', id);
    return evidenceView(e);
  }

  async list(actor: Actor, filter: EvidenceFilter, page: PageRequest): Promise<Page<EvidenceView>> {
    if (filter.from && filter.to && filter.from > filter.to) throw DomainError.invalid('to', 'must not be before from');
    const r = await this.d.repos.evidence.list(actor.tenantId, filter, page);
    return { ...r, items: r.items.map(evidenceView) };
  }

  async versions(actor: Actor, id: string): Promise<EvidenceVersionView[]> {
    const e = await this.d.repos.evidence.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('evidence', id);
    return (await this.d.repos.evidence.versions(actor.tenantId, id)).map(versionView);
  }

  /** Reviews the current version; `evidence.reviewed` carries status, feedback and version. */
  async review(actor: Actor, id: string, input: { status?: unknown; feedback?: unknown }): Promise<EvidenceView> {
    const now = this.now();
    const e = await this.d.repos.evidence.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('evidence', id);
    const reviewed = Evidence.review(e, input, { by: actor.id, now });
    await this.d.uow.run(async (tx) => {
      if (!(await tx.evidence.saveReview(reviewed)))
        throw DomainError.conflict('evidence_already_reviewed', 'This version was reviewed meanwhile');
      const v = reviewed.current;
      await recordChange(tx, actor, now, {
        action: 'evidence.reviewed',
        resourceType: 'evidence',
        resourceId: id,
        details: { version: v.version, status: v.status },
        events: [
          {
            type: 'evidence.reviewed',
            data: {
              evidenceId: id,
              learnerId: e.learnerId,
              moduleId: e.moduleId,
              status: v.status,
              feedback: v.feedback,
              version: v.version,
            },
            subjectId: e.learnerId,
          },
        ],
      });
    });
    return evidenceView(reviewed);
  }

  /** A signed URL (3600 s) to the current version's bytes; issuing it is audited. */
  async downloadUrl(actor: Actor, id: string, ip: string | null): Promise<DownloadGrant> {
    const now = this.now();
    const e = await this.d.repos.evidence.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('evidence', id);
    Evidence.assertHasFile(e, 'downloaded');
    const expiresAt = new Date(now.getTime() + SIGNED_URL_SECONDS * 1000);
    const token = this.d.signer.sign(`${e.tenantId}|${e.id}|${e.current.version}|${expiresAt.getTime()}`, DOWNLOAD);
    await this.d.uow.run((tx) =>
      recordChange(tx, actor, now, {
        action: 'evidence.download_url_issued',
        resourceType: 'evidence',
        resourceId: id,
        details: { version: e.current.version, ip },
      }),
    );
    return {
      url: `${this.d.settings.publicUrl}/api/v1/files/evidence/${token}`,
      expiresAt: expiresAt.toISOString(),
      filename: e.current.filename,
      contentType: e.current.contentType,
      size: e.current.size,
    };
  }

  /** Opens a signed download URL: checks signature, tenant and expiry, audits the download, streams the bytes. */
  async openDownload(token: string, tenantSlug: string | null, ip: string | null): Promise<EvidenceFileAnswer> {
    const payload = this.d.signer.verify(token, DOWNLOAD);
    if (!payload) throw invalidUrl();
    const [tenantId, id, version, exp] = payload.split('|');
    if (!tenantId || !id || !version || !exp) throw invalidUrl();
    if (tenantSlug !== null && (await this.d.repos.tenants.findById(tenantId))?.slug !== tenantSlug) throw invalidUrl();
    const now = this.now();
    if (now.getTime() > Number(exp)) throw expiredUrl();
    const versions = await this.d.repos.evidence.versions(tenantId, id);
    const v = versions.find((x) => x.version === Number(version));
    if (!v || !(await this.d.repos.evidence.findById(tenantId, id))) throw DomainError.notFound('evidence', id);
    const actor: Actor = { tenantId, id: 'signed-url', role: 'viewer', scopes: [] };
    await this.d.uow.run((tx) =>
      recordChange(tx, actor, now, {
        action: 'evidence.downloaded',
        resourceType: 'evidence',
        resourceId: id,
        details: { version: v.version, ip },
      }),
    );
    return {
      contentType: v.contentType,
      size: v.size,
      filename: v.filename,
      etag: `${v.sha256.slice(0, 32)}-v${v.version}`,
      open: (range) => this.d.files.open(v.storageKey, range),
    };
  }

  /**
   * A signed URL (3600 s) to one ZIP of up to 500 pieces of evidence (their current versions), all of the caller's
   * tenant; the ZIP is written while it is sent, decrypting file by file: nothing is staged on disk.
   */
  async bulkDownloadUrl(
    actor: Actor,
    ids: readonly string[],
    ip: string | null,
  ): Promise<DownloadGrant & { count: number }> {
    const unique = [...new Set(ids)];
    if (unique.length === 0 || unique.length > 500)
      throw DomainError.invalid('evidenceIds', 'must name 1 to 500 pieces of evidence');
    const found = await this.d.repos.evidence.findByIds(actor.tenantId, unique);
    const missing = unique.filter((id) => !found.some((e) => e.id === id));
    if (missing.length)
      throw new DomainError(
        'not_found',
        'not_found',
        `Unknown evidence: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', ...' : ''}`,
        [],
        { missing },
      );
    const awaiting = found.filter((e) => Evidence.isAwaitingUpload(e)).map((e) => e.id);
    if (awaiting.length)
      throw DomainError.conflict(
        'evidence_awaiting_upload',
        `Evidence without its file yet cannot be downloaded: ${awaiting.slice(0, 10).join(', ')}${awaiting.length > 10 ? ', ...' : ''}`,
        [],
        { awaiting },
      );
    const now = this.now();
    const expiresAt = new Date(now.getTime() + SIGNED_URL_SECONDS * 1000);
    const bundle = {
      id: newId('bdl', now.getTime()),
      tenantId: actor.tenantId,
      evidenceIds: unique,
      createdBy: actor.id,
      createdAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    };
    await this.d.uow.run(async (tx) => {
      await tx.evidenceBundles.insert(bundle);
      await recordChange(tx, actor, now, {
        action: 'evidence.bulk_download_url_issued',
        resourceType: 'evidence_bundle',
        resourceId: bundle.id,
        details: { count: unique.length, ip },
      });
    });
    const token = this.d.signer.sign(`${actor.tenantId}|${bundle.id}|${expiresAt.getTime()}`, BUNDLE);
    const size = found.reduce((n, e) => n + e.current.size, 0);
    return {
      url: `${this.d.settings.publicUrl}/api/v1/files/bundles/${token}`,
      expiresAt: bundle.expiresAt,
      filename: `evidence-${now.toISOString().slice(0, 10)}.zip`,
      contentType: 'application/zip',
      size,
      count: unique.length,
    };
  }

  /** Opens a signed bundle URL: the evidence still there, in id order, as ZIP entries to stream. */
  async openBundle(
    token: string,
    tenantSlug: string | null,
    ip: string | null,
  ): Promise<{ filename: string; entries: { name: string; open(): Promise<Readable> }[] }> {
    const payload = this.d.signer.verify(token, BUNDLE);
    if (!payload) throw invalidUrl();
    const [tenantId, id, exp] = payload.split('|');
    if (!tenantId || !id || !exp) throw invalidUrl();
    if (tenantSlug !== null && (await this.d.repos.tenants.findById(tenantId))?.slug !== tenantSlug) throw invalidUrl();
    const now = this.now();
    if (now.getTime() > Number(exp)) throw expiredUrl();
    const bundle = await this.d.repos.evidenceBundles.findById(tenantId, id);
    if (!bundle) throw invalidUrl();
    const found = await this.d.repos.evidence.findByIds(tenantId, bundle.evidenceIds);
    const actor: Actor = { tenantId, id: 'signed-url', role: 'viewer', scopes: [] };
    await this.d.uow.run((tx) =>
      recordChange(tx, actor, now, {
        action: 'evidence.bulk_downloaded',
        resourceType: 'evidence_bundle',
        resourceId: id,
        details: { count: found.length, ip },
      }),
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced.
    const safe = (s: string) => s.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_');
    return {
      filename: `evidence-${bundle.createdAt.slice(0, 10)}.zip`,
      entries: found.map((e) => ({
        name: `${safe(e.learnerId)}/${safe(e.moduleId)}/${e.id}-v${e.current.version}-${safe(e.current.filename)}`,
        open: () => this.d.files.open(e.current.storageKey),
      })),
    };
  }

  /** Marks deleted (restorable for 30 days, then purged). */
  async remove(actor: Actor, id: string): Promise<void> {
    const now = this.now();
    await this.d.uow.run(async (tx) => {
      if (!(await tx.evidence.markDeleted(actor.tenantId, id, now.toISOString())))
        throw DomainError.notFound('evidence', id);
      await recordChange(tx, actor, now, { action: 'evidence.deleted', resourceType: 'evidence', resourceId: id });
    });
  }

  async restore(actor: Actor, id: string): Promise<EvidenceView> {
    const now = this.now();
    const e = await this.d.repos.evidence.findById(actor.tenantId, id, { withDeleted: true });
    if (!e || !e.deletedAt) throw DomainError.notFound('evidence', id);
    if (now.getTime() - Date.parse(e.deletedAt) > EVIDENCE_RESTORE_DAYS * DAY_MS) {
      throw DomainError.conflict(
        'restore_period_over',
        `Deleted evidence can be restored for ${EVIDENCE_RESTORE_DAYS} days`,
      );
    }
    await this.d.uow.run(async (tx) => {
      if (!(await tx.evidence.restore(actor.tenantId, id, now.toISOString())))
        throw DomainError.notFound('evidence', id);
      await recordChange(tx, actor, now, { action: 'evidence.restored', resourceType: 'evidence', resourceId: id });
    });
    return evidenceView({ ...e, deletedAt: null, updatedAt: now.toISOString() });
  }

  /** Purges evidence deleted more than 30 days ago: bytes first, then the record; an audit record stays. */
  async purgeDeleted(batch = 100): Promise<number> {
    const now = this.now();
    const before = new Date(now.getTime() - EVIDENCE_RESTORE_DAYS * DAY_MS).toISOString();
    let purged = 0;
    for (;;) {
      const found = await this.d.repos.evidence.deletedBefore(before, batch);
      for (const c of found) {
        for (const key of c.storageKeys) await this.d.files.remove(key);
        await this.d.uow.run(async (tx) => {
          await tx.evidence.remove(c.tenantId, c.id);
          await recordChange(tx, { tenantId: c.tenantId, id: 'system', role: 'admin', scopes: [] }, now, {
            action: 'evidence.purged',
            resourceType: 'evidence',
            resourceId: c.id,
            details: { versions: c.storageKeys.length },
          });
        });
        purged++;
      }
      if (found.length < batch) return purged;
    }
  }

  /**
   * After a master-key rotation: wraps every stored version's data key under the current master key, without
   * rewriting the encrypted content (docs/architecture.md, "Files"). Returns how many were re-wrapped and seen.
   */
  async rewrapFiles(batch = 500): Promise<{ rewrapped: number; files: number }> {
    let after: string | null = null;
    let rewrapped = 0;
    let files = 0;
    for (;;) {
      const keys = await this.d.repos.evidence.storageKeys(after, batch);
      for (const key of keys) {
        if (await this.d.files.rewrap(key)) rewrapped++;
        files++;
      }
      if (keys.length < batch) return { rewrapped, files };
      after = keys[keys.length - 1]!;
    }
  }

  /** The tenant's retention in years after an enrolment's completion (7 unless set). */
  async retentionYears(tenantId: string): Promise<number> {
    return (await this.d.repos.evidenceSettings.retentionYears(tenantId)) ?? DEFAULT_RETENTION_YEARS;
  }

  /** Sets a tenant's retention (operator: `fundi evidence retention`, or an administrator); 1 to 50 years. */
  async setRetentionYears(tenantSlug: string, years: unknown, actor?: Actor): Promise<number> {
    if (typeof years !== 'number' || !Number.isInteger(years) || years < 1 || years > 50)
      throw DomainError.invalid('years', 'must be a whole number of years from 1 to 50');
    const tenant = await this.d.repos.tenants.findBySlug(tenantSlug);
    if (!tenant) throw DomainError.notFound('tenant', tenantSlug);
    const now = this.now();
    await this.d.uow.run(async (tx) => {
      await tx.evidenceSettings.setRetentionYears(tenant.id, years);
      await recordChange(tx, actor ?? { tenantId: tenant.id, id: 'cli', role: 'admin', scopes: [] }, now, {
        action: 'evidence.retention_set',
        resourceType: 'tenant',
        resourceId: tenant.id,
        details: { years },
      });
    });
    return years;
  }

  /**
   * Purges evidence whose enrolment was completed longer ago than the tenant's retention: bytes, then records; an
   * audit entry stays for each.
   */
  async purgePastRetention(batch = 100): Promise<number> {
    const now = this.now();
    let purged = 0;
    for (const tenant of await this.d.repos.tenants.list()) {
      const years = await this.retentionYears(tenant.id);
      const cutoff = new Date(now);
      cutoff.setUTCFullYear(cutoff.getUTCFullYear() - years);
      const day = cutoff.toISOString().slice(0, 10);
      for (;;) {
        const found = await this.d.repos.evidence.pastRetention(tenant.id, day, batch);
        for (const c of found) {
          for (const key of c.storageKeys) await this.d.files.remove(key);
          await this.d.uow.run(async (tx) => {
            await tx.evidence.remove(c.tenantId, c.id);
            await recordChange(tx, { tenantId: c.tenantId, id: 'system', role: 'admin', scopes: [] }, now, {
              action: 'evidence.retention_purged',
              resourceType: 'evidence',
              resourceId: c.id,
              details: { versions: c.storageKeys.length, retentionYears: years },
            });
          });
          purged++;
        }
        if (found.length < batch) break;
      }
    }
    return purged;
  }

  /** An erased learner's evidence goes at once: bytes and records; the audit keeps that it happened. */
  async eraseLearner(tenantId: string, learnerId: string): Promise<number> {
    const now = this.now();
    const found = await this.d.repos.evidence.ofLearner(tenantId, learnerId);
    for (const c of found) {
      for (const key of c.storageKeys) await this.d.files.remove(key);
      await this.d.uow.run(async (tx) => {
        await tx.evidence.remove(tenantId, c.id);
        await recordChange(tx, { tenantId, id: 'system', role: 'admin', scopes: [] }, now, {
          action: 'evidence.erased',
          resourceType: 'evidence',
          resourceId: c.id,
          details: { versions: c.storageKeys.length },
        });
      });
    }
    return found.length;
  }

  /** Records today's storage use of every tenant (the daily job); returns how many tenants. */
  async snapshotUsage(): Promise<number> {
    const day = utcDay(this.now().getTime());
    const tenants = await this.d.repos.tenants.list();
    for (const t of tenants) {
      const u = await this.d.repos.evidence.usage(t.id);
      await this.d.repos.storageHistory.record(t.id, { day, bytes: u.bytes, files: u.files });
    }
    return tenants.length;
  }

  /**
   * Storage use over the last `days` days, oldest first: the daily snapshots, with today's taken now. Days before
   * the first snapshot are absent (the chart starts where the records do).
   */
  async usageHistory(actor: Actor, days = 30): Promise<{ quotaBytes: number | null; days: StorageDay[] }> {
    const now = this.now().getTime();
    const today = utcDay(now);
    const u = await this.d.repos.evidence.usage(actor.tenantId);
    await this.d.repos.storageHistory.record(actor.tenantId, { day: today, bytes: u.bytes, files: u.files });
    const from = utcDay(now - (days - 1) * 86_400_000);
    const { quota } = await this.quota(actor.tenantId);
    return { quotaBytes: quota, days: await this.d.repos.storageHistory.list(actor.tenantId, from) };
  }

  async usage(actor: Actor): Promise<UsageView> {
    const { quota } = await this.quota(actor.tenantId);
    const u = await this.d.repos.evidence.usage(actor.tenantId);
    // This process's counts first; other processes' reach the store within the meter's flush interval.
    await this.d.meter.flush();
    const requestsToday = await this.d.repos.apiKeyUsage.requestsOn(actor.tenantId, utcDay(this.now().getTime()));
    return {
      bytesUsed: u.bytes,
      quotaBytes: quota,
      files: u.files,
      percentUsed: quota ? Math.round((u.bytes / quota) * 10_000) / 100 : null,
      requestsToday,
    };
  }
}
