import type { Readable } from 'node:stream';

/**
 * Port: a store of opaque byte objects by key (docs/architecture.md, "Files"). Keys are tenant-scoped paths such as
 * `t/<tenantId>/evidence/<id>/v1`: segments of letters, digits, `.`, `_` and `-`, never `..`. Everything goes
 * through streams: no object is ever held in memory whole.
 */
export interface FileStore {
  /** Writes the object, replacing any object under the key; nothing is visible under the key until it is complete. */
  put(key: string, source: Readable): Promise<{ size: number }>;
  /** The object's bytes (`range` both ends inclusive); fails with a not-found error when absent. */
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  stat(key: string): Promise<{ size: number } | null>;
  /** Idempotent. Also removes what writes to the key cut off by a killed process left in the store, if anything. */
  delete(key: string): Promise<void>;
  /**
   * Removes what writes that never completed left behind (a process killed or stopped mid-`put`) and that was last
   * written to before `before`, at most `limit` items; returns how many. A write still under way is younger: callers
   * pass a cut-off well past the longest write (the retention job: an hour).
   */
  removeAbandoned(before: Date, limit: number): Promise<number>;
}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Throws for a key that could escape its place (`..`, absolute paths, odd characters). */
export function assertFileKey(key: string): void {
  if (key.length > 512 || !KEY.test(key) || key.split('/').some((s) => s === '.' || s === '..')) {
    throw new Error(`not a valid file key: ${JSON.stringify(key)}`);
  }
}
