import type { Readable } from 'node:stream';
import {
  DomainError,
  Evidence,
  type EvidenceSnapshot,
  SIGNED_URL_SECONDS,
  displayableFileName,
  newId,
} from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { checkSignedUrl, invalidUrl } from './evidence-signed-urls.js';
import type { EvidencePorts } from './evidence-ports.js';

const DOWNLOAD = 'evidence-download';
const BUNDLE = 'evidence-bundle';

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

/**
 * Downloads through signed URLs (docs/api.md, "Evidence"): one version's bytes, or one ZIP of up to 500 pieces
 * written while it is sent. Issuing a URL and using it are both audited; an altered, foreign or used URL is
 * `signed_url_invalid`, a late one `signed_url_expired`.
 */
/**
 * A download through a signed URL is audited under the URL itself as the actor (it carries no key), from the
 * address that used it.
 */
function auditSignedDownload(
  d: EvidencePorts,
  tenantId: string,
  now: Date,
  ip: string | null,
  change: Parameters<typeof recordChange>[3],
): Promise<void> {
  const actor: Actor = { tenantId, id: 'signed-url', role: 'viewer', scopes: [], ip };
  return d.uow.run((tx) => recordChange(tx, actor, now, change));
}

/** The learner a set of evidence belongs to when it is one learner's; none when it spans several. */
function oneLearner(pieces: readonly { learnerId: string }[]): string | undefined {
  const ids = new Set(pieces.map((e) => e.learnerId));
  return ids.size === 1 ? [...ids][0] : undefined;
}

export class EvidenceDownloads {
  constructor(private readonly d: EvidencePorts) {}

  /** A signed URL (3600 s) to the current version's bytes; issuing it is audited. */
  async downloadUrl(actor: Actor, id: string, ip: string | null): Promise<DownloadGrant> {
    const now = this.d.clock.now();
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
        learnerId: e.learnerId,
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
    const { fields, now } = await checkSignedUrl(this.d, token, DOWNLOAD, tenantSlug, 4);
    const [tenantId, id, version] = fields as [string, string, string];
    const versions = await this.d.repos.evidence.versions(tenantId, id);
    const v = versions.find((x) => x.version === Number(version));
    const e = v ? await this.d.repos.evidence.findById(tenantId, id) : null;
    if (!v || !e) throw DomainError.notFound('evidence', id);
    await auditSignedDownload(this.d, tenantId, now, ip, {
      action: 'evidence.downloaded',
      resourceType: 'evidence',
      resourceId: id,
      learnerId: e.learnerId,
      details: { version: v.version, ip },
    });
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
    const now = this.d.clock.now();
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
        learnerId: oneLearner(found),
        details: { count: unique.length, ip },
      });
    });
    const token = this.d.signer.sign(`${actor.tenantId}|${bundle.id}|${expiresAt.getTime()}`, BUNDLE);
    const size = storedZipSize(found.map((e) => ({ name: bundleEntryName(e), size: e.current.size })));
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
    const { fields, now } = await checkSignedUrl(this.d, token, BUNDLE, tenantSlug, 3);
    const [tenantId, id] = fields as [string, string];
    const bundle = await this.d.repos.evidenceBundles.findById(tenantId, id);
    if (!bundle) throw invalidUrl();
    const found = await this.d.repos.evidence.findByIds(tenantId, bundle.evidenceIds);
    await auditSignedDownload(this.d, tenantId, now, ip, {
      action: 'evidence.bulk_downloaded',
      resourceType: 'evidence_bundle',
      resourceId: id,
      learnerId: oneLearner(found),
      details: { count: found.length, ip },
    });
    return {
      filename: `evidence-${bundle.createdAt.slice(0, 10)}.zip`,
      entries: found.map((e) => ({
        name: bundleEntryName(e),
        open: () => this.d.files.open(e.current.storageKey),
      })),
    };
  }
}

/** A path segment of a ZIP entry: no separators, nothing Windows refuses in a name, nothing a file name may not hold. */
const safe = (s: string) => displayableFileName(s).replace(/[\\/:*?"<>|]/g, '_');

/** A piece of evidence's path in a bundle: `<learnerId>/<moduleId>/<evidenceId>-v<n>-<filename>`. */
function bundleEntryName(e: EvidenceSnapshot): string {
  return `${safe(e.learnerId)}/${safe(e.moduleId)}/${e.id}-v${e.current.version}-${safe(e.current.filename)}`;
}

/**
 * The length of a ZIP of these files stored without compression and written as it is sent: per file a local header
 * (30 bytes + name), the bytes, a data descriptor (16) and a central directory entry (46 + name); then the end
 * record (22). Exact while the archive stays under 4 GB; past that, Zip64 records add a few dozen bytes per file.
 */
export function storedZipSize(files: readonly { name: string; size: number }[]): number {
  return files.reduce((n, f) => {
    const name = Buffer.byteLength(f.name, 'utf8');
    return n + 30 + name + f.size + 16 + 46 + name;
  }, 22);
}
