/**
 * An upload under its form's key (docs/dashboard.md, "Learner portal"): claimed when an attempt begins, given the
 * evidence id when the file is stored, so a retried attempt stores nothing twice.
 */
export interface UploadKeySnapshot {
  tenantId: string;
  key: string;
  /** The learner whose form it is: another learner's attempt with the key is refused. */
  learnerId: string;
  /** Null while the attempt that claimed the key is still running. */
  evidenceId: string | null;
  createdAt: string;
  expiresAt: string;
}

/** Port: upload keys, kept a day. */
export interface UploadKeyRepository {
  /** Claims the key for an attempt; false when it is claimed already (another attempt, running or done). */
  claim(u: UploadKeySnapshot): Promise<boolean>;
  find(tenantId: string, key: string): Promise<UploadKeySnapshot | null>;
  /** The attempt stored its file as this evidence. */
  complete(tenantId: string, key: string, evidenceId: string): Promise<void>;
  /** The attempt failed: the key may be tried again. */
  release(tenantId: string, key: string): Promise<void>;
  /** Removes keys expired before `before` (at most `limit`, the earliest first); returns how many. */
  deleteExpired(before: string, limit?: number): Promise<number>;
}
