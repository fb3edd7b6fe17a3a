/** What a work signal announces: events to fan out were written, or jobs were queued. */
export type WorkKind = 'outbox' | 'jobs';

/**
 * Tells the worker at once that another process wrote work (Postgres: LISTEN/NOTIFY), so it need not wait for
 * its next poll. Best effort: a signal may be late or lost (a dropped connection), and polling still finds the work.
 */
export interface WorkSignal {
  /** Calls `onWork` for each announcement from now on, until the returned handle is closed. Never rejects. */
  listen(onWork: (what: WorkKind) => void): Promise<{ close(): Promise<void> }>;
}
