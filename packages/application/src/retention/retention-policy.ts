/**
 * What retention prunes, one entry per kind of record that would otherwise grow for ever (docs/architecture.md,
 * "Retention"): the platform's here, each capability adding its own beside its retention task (`declare module
 * '../retention/retention-policy.js' { interface RetentionKinds { hrLog: true } }`). The audit log is not one of
 * them: audit entries are kept for the regulator's period and no job here ever deletes one.
 */
export interface RetentionKinds {
  /** Finished jobs. */
  jobs: true;
  /** The shared rate-limit windows, once passed. */
  rateLimits: true;
}
export type RetentionKind = keyof RetentionKinds;

/**
 * A kind's retention period as the capability that owns its records declares it: the days it is kept after it
 * ended by default (0 = at its end: a session at expiry, a window once passed), and the variable that changes them
 * (1 to 36,500 days; docs/architecture.md, "Retention"), if any.
 */
export interface RetentionPeriod {
  kind: RetentionKind;
  days: number;
  variable?: string;
}

/** How long each kind is kept after it ended, in days: every declared kind's period. */
export type RetentionPolicy = { readonly [K in RetentionKind]?: number };

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
