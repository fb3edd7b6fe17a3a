/**
 * What retention prunes, one entry per kind of record that would otherwise grow for ever (docs/architecture.md,
 * "Retention"). The audit log is not one of them: audit entries are kept for the regulator's period and no job
 * here ever deletes one.
 */
export type RetentionKind =
  | 'jobs'
  | 'webhookEvents'
  | 'webhookAttempts'
  | 'notifications'
  | 'hrLog'
  | 'imports'
  | 'dashboardSessions'
  | 'rateLimits';

/** How long each kind is kept after it ended, in days; 0 = at its end (a session at expiry, a window once passed). */
export type RetentionPolicy = Record<RetentionKind, number>;

/**
 * The defaults, as peers keep the same things: finished jobs 7 days (pg-boss's archive), webhook events and
 * delivery attempts 90 days (Svix), notifications a year, the HR inbound log 90 days, imports 90 days after they
 * finished; sessions and rate-limit windows when they end.
 */
export const DEFAULT_RETENTION: RetentionPolicy = {
  jobs: 7,
  webhookEvents: 90,
  webhookAttempts: 90,
  notifications: 365,
  hrLog: 90,
  imports: 90,
  dashboardSessions: 0,
  rateLimits: 0,
};

/**
 * One kind's pruning, given by the capability that owns its records. `prune` deletes at most `limit` records that
 * ended before `before` and that nothing still needs, in one short transaction, and returns how many it deleted:
 * fewer than `limit` means nothing more is due. The cut-off is the policy's for `kind`, or a fixed `keepMs` for the
 * file store's temporary files (an hour: no write takes longer).
 */
export type RetentionTask = {
  /** Names the step within its kind in the run's report (`webhookEvents.deliveries`). */
  step?: string;
  prune(before: Date, limit: number): Promise<number>;
} & ({ kind: RetentionKind } | { kind: 'temporaryFiles'; keepMs: number });
