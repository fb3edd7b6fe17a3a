import type { createLogger } from '@fundi/adapters';
import type { HttpDrain } from '@fundi/http';

type Logger = Pick<ReturnType<typeof createLogger>, 'info' | 'warn' | 'error'>;

/** What a process stops, in this order (docs/architecture.md, "Shutdown"). */
export interface ShutdownSteps {
  /** FUNDI_SHUTDOWN_GRACE_MS: from the signal to the exit at most. */
  graceMs: number;
  logger: Logger;
  /** The API's server; none in the worker process. */
  http?: HttpDrain;
  /** The worker, given what is left of the grace for its in-flight work. */
  worker?: { stop(graceMs?: number): Promise<void> } | null;
  /** Closes the rest: the mail thread, the database. */
  close(): Promise<void>;
  exit(code: number): void;
}

/** What the grace keeps back for closing the database and exiting, after the requests and the worker. */
export function closingTime(graceMs: number): number {
  return Math.min(1000, Math.floor(graceMs / 5));
}

/** Resolves true when `work` settles within `ms`, false otherwise (it goes on, unawaited). */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((ok) => {
    timer = setTimeout(() => ok(false), Math.max(0, ms));
  });
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Stops the process within `graceMs`: the server stops accepting connections and answers its requests in flight,
 * then the worker finishes or gives back its work, then the rest closes. Whatever is still running when its time
 * is up is cut and logged. Resolves with the exit code: 0 when nothing was cut, 1 otherwise.
 */
export async function shutDown(steps: ShutdownSteps, signal: string): Promise<number> {
  const started = Date.now();
  const workEnds = started + steps.graceMs - closingTime(steps.graceMs);
  const left = () => workEnds - Date.now();
  steps.logger.info({ signal, graceMs: steps.graceMs }, 'shutting down');
  let code = 0;
  if (steps.http && !(await steps.http.drained(left()))) {
    code = 1;
    steps.logger.warn({ requests: steps.http.cut() }, 'shutdown grace ran out: requests cut');
  }
  if (steps.worker) {
    // Its leases are given back after its in-flight work: half the closing time is theirs.
    const stopped = steps.worker.stop(Math.max(0, left()));
    if (!(await within(stopped, left() + closingTime(steps.graceMs) / 2))) {
      code = 1;
      steps.logger.warn('shutdown grace ran out: the worker did not stop in time');
    }
  }
  if (!(await within(steps.close(), started + steps.graceMs - Date.now()))) {
    code = 1;
    steps.logger.warn('shutdown grace ran out: the database did not close in time');
  }
  steps.logger.info({ ms: Date.now() - started, code }, 'stopped');
  return code;
}

/**
 * On the first SIGTERM or SIGINT, `shutDown` and exit with its code. A second signal, or the grace running out
 * however busy the process is, cuts whatever is in flight (logged) and exits at once with 1.
 */
export function stopOnSignals(steps: ShutdownSteps): void {
  let stopping = false;
  const cut = (why: string) => {
    steps.logger.warn({ requests: steps.http?.cut() ?? [] }, `${why}: stopping now`);
    steps.exit(1);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return cut(`second ${signal}`);
    stopping = true;
    setTimeout(() => cut('shutdown grace ran out'), steps.graceMs).unref();
    shutDown(steps, signal).then(steps.exit, (e: unknown) => {
      steps.logger.error({ err: e }, 'shutdown failed');
      steps.exit(1);
    });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
