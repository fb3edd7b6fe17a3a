import type { Readable } from 'node:stream';

/** What the vault learned storing a file: sniffed from the bytes, never from the name or a header. */
export interface StoredFile {
  size: number;
  sha256: string;
  /** The media type sniffed from the content. */
  contentType: string;
  /** The size class the limits apply to. */
  kind: 'document' | 'image' | 'video' | 'archive';
}

export interface StoreOptions {
  maxBytes?: number;
  expectSize?: number;
  /**
   * The service's own output (exports): its type is known, so it is not sniffed and no kind limit applies (an
   * export may be empty or larger than an uploaded document may be). Never set for a caller's upload.
   */
  known?: Pick<StoredFile, 'contentType' | 'kind'>;
}

/**
 * Port: files kept encrypted at rest (docs/architecture.md, "Files"). `store` sniffs the type from the first
 * bytes and refuses what is not allowed (415 `unsupported_media_type`), cuts the stream off as soon as it passes
 * its kind's limit or `maxBytes` (413 `payload_too_large`), and keeps nothing of a refused or failed upload.
 */
export interface FileVault {
  store(key: string, source: Readable, o?: StoreOptions): Promise<StoredFile>;
  /** The plaintext (of `range` only, when given), verified chunk by chunk before it is passed on. */
  open(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Idempotent. */
  remove(key: string): Promise<void>;
  /** Wraps the file's data key under the current master key again; false when it already was (docs/architecture.md, "Files"). */
  rewrap(key: string): Promise<boolean>;
}
