/** A dashboard session: the cookie carries a random token, the store keeps only its hash. */
export interface DashboardSessionSnapshot {
  tokenHash: string;
  tenantId: string;
  userId: string;
  /** Compared with the `_csrf` field of every form post of this session. */
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
}

/** Port: dashboard sessions. */
export interface DashboardSessionRepository {
  insert(s: DashboardSessionSnapshot): Promise<void>;
  /** The session, or null when unknown (expiry is the caller's check). */
  find(tokenHash: string): Promise<DashboardSessionSnapshot | null>;
  /** Idempotent. */
  delete(tokenHash: string): Promise<void>;
  /** Ends every session of a user (password changed); returns how many. */
  deleteForUser(tenantId: string, userId: string): Promise<number>;
  /** Removes sessions expired before `before` (at most `limit` of them, the earliest expired); returns how many. */
  deleteExpired(before: string, limit?: number): Promise<number>;
}
