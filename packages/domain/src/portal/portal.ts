/**
 * A learner's sign-in to the portal (docs/dashboard.md, "Learner portal"): a one-time link (email) or a six-digit code
 * (WhatsApp), stored only as a hash of what was sent, valid 15 minutes, used once.
 */
export interface PortalSignInSnapshot {
  /** SHA-256 of the link's token, or of the code bound to its tenant and learner. */
  tokenHash: string;
  tenantId: string;
  learnerId: string;
  channel: 'email' | 'whatsapp';
  createdAt: string;
  expiresAt: string;
  /** When it was used; a used sign-in never opens a second session. */
  usedAt: string | null;
}

/** A learner's portal session: the cookie carries a random token, the store keeps only its hash. */
export interface PortalSessionSnapshot {
  tokenHash: string;
  tenantId: string;
  learnerId: string;
  /** Compared with the `_csrf` field of every form post of this session. */
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
}

/** Port: portal sign-ins. */
export interface PortalSignInRepository {
  insert(s: PortalSignInSnapshot): Promise<void>;
  /**
   * Marks the sign-in used in one conditional write, only while it is unused and not expired at `at`; returns it
   * then, else null (unknown, used, expired). Two requests with one link: exactly one gets it.
   */
  consume(tokenHash: string, at: string): Promise<PortalSignInSnapshot | null>;
  /** Ends every unused sign-in of a learner (a session opened, or the learner erased); returns how many. */
  deleteForLearner(tenantId: string, learnerId: string): Promise<number>;
  /** Removes sign-ins expired before `before` (at most `limit`, the earliest first); returns how many. */
  deleteExpired(before: string, limit?: number): Promise<number>;
}

/** Port: portal sessions. */
export interface PortalSessionRepository {
  insert(s: PortalSessionSnapshot): Promise<void>;
  /** The session, or null when unknown (expiry is the caller's check). */
  find(tokenHash: string): Promise<PortalSessionSnapshot | null>;
  /** Idempotent. */
  delete(tokenHash: string): Promise<void>;
  /** Ends every session of a learner (erasure); returns how many. */
  deleteForLearner(tenantId: string, learnerId: string): Promise<number>;
  deleteExpired(before: string, limit?: number): Promise<number>;
}

export interface PortalRepos {
  portalSignIns: PortalSignInRepository;
  portalSessions: PortalSessionRepository;
}
