import type { Readable } from 'node:stream';
import { displayableFileName } from '@fundi/domain';
import type { EvidenceSnapshot } from '@fundi/domain/evidence';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { EvidencePorts } from './evidence-ports.js';

export const DOWNLOAD = 'evidence-download';
export const BUNDLE = 'evidence-bundle';

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
export function auditSignedDownload(
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
export function oneLearner(pieces: readonly { learnerId: string }[]): string | undefined {
  const ids = new Set(pieces.map((e) => e.learnerId));
  return ids.size === 1 ? [...ids][0] : undefined;
}

/** A path segment of a ZIP entry: no separators, nothing Windows refuses in a name, nothing a file name may not hold. */
const safe = (s: string) => displayableFileName(s).replace(/[\\/:*?"<>|]/g, '_');

/** A piece of evidence's path in a bundle: `<learnerId>/<moduleId>/<evidenceId>-v<n>-<filename>`. */
export function bundleEntryName(e: EvidenceSnapshot): string {
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
