import type { Readable } from 'node:stream';
import type { EvidenceRepos, LearnerRepos, PlatformRepos, TenantRepos, TrainingRepos, WebhookRepos } from '@fundi/domain';
import type { CoreDeps } from '../shared/ports.js';

/** What the vault learned storing a file: sniffed from the bytes, never from the name or a header. */
export interface StoredFile {
  size: number;
  sha256: string;
  /** The media type sniffed from the content. */
  contentType: string;
  /** The size class the limits apply to. */
  kind: 'document' | 'image' | 'video' | 'archive';
}

/**
 * Port: files kept encrypted at rest (docs/architecture.md, "Files"). `store` sniffs the type from the first
 * bytes and refuses what is not allowed (415 `unsupported_media_type`), cuts the stream off as soon as it passes
 * its kind's limit or `maxBytes` (413 `payload_too_large`), and keeps nothing of a refused or failed upload.
 */
export interface FileVault {
  store(key: string, source: Readable, o?: { maxBytes?: number; expectSize?: number }): Promise<StoredFile>;
  /** The plaintext (of `range` only, when given), verified chunk by chunk before it is passed on. */
  open(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Idempotent. */
  remove(key: string): Promise<void>;
}

/** Port: signs and checks the short-lived file URLs (HMAC over the payload and purpose). */
export interface UrlSigner {
  sign(payload: string, purpose: string): string;
  /** The payload, or null when the token was altered or is not one of ours. */
  verify(token: string, purpose: string): string | null;
}

export interface EvidenceSettings {
  /** Public base of the service (e.g. `https://fundi.example.co.za`), so signed URLs are absolute; '' = relative. */
  publicUrl: string;
}

export type EvidencePorts = CoreDeps<EvidenceRepos & LearnerRepos & TrainingRepos & TenantRepos & PlatformRepos & Pick<WebhookRepos, 'tenantAlerts'>> & {
  files: FileVault;
  signer: UrlSigner;
  settings: EvidenceSettings;
};
