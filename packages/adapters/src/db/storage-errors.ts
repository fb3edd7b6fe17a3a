import { DomainError, isStorageUnavailable } from '@fundi/domain';

/** SQLSTATEs of a server that is going away, restarting or refusing connections (class 08 and 57P0x, 53300). */
const PG_CODES = new Set(['57P01', '57P02', '57P03', '57P05', '53300', '08000', '08001', '08003', '08004', '08006']);
/** Socket errors on the way to the server. */
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** node-postgres' own errors for a lost, closed or timed-out connection (they carry no code). */
const PG_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect|Cannot use a pool after calling end)/;

/** Whether a node-postgres error means the server could not be reached or the connection was lost. */
export function isPostgresConnectionError(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | null;
  if (!err || typeof err !== 'object') return false;
  if (typeof err.code === 'string' && (PG_CODES.has(err.code) || NET_CODES.has(err.code))) return true;
  return typeof err.message === 'string' && PG_MESSAGES.test(err.message);
}

/**
 * SQLite result codes (extended codes start with the primary one: `SQLITE_IOERR_WRITE`) of a database the process
 * cannot use just now: locked by another connection past the busy timeout, an I/O error, a full disk, a file that
 * cannot be opened or was moved. Corruption and misuse are bugs or damage, not an outage: they stay 500s.
 */
const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY_DBMOVED|PROTOCOL)/;

export function isSqliteUnavailable(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && SQLITE_CODES.test(code);
}

/**
 * `e` as the caller should see it: a storage outage becomes `DomainError.storageUnavailable` (with `e` as its
 * cause), marked `outcomeUnknown` when the statement lost could have changed data and committed on its own; anything
 * else (a unique violation, a bug) is returned unchanged.
 */
export function storageError(e: unknown, outage: (e: unknown) => boolean, outcomeUnknown = false): unknown {
  if (isStorageUnavailable(e) || !outage(e)) return e;
  return DomainError.storageUnavailable(e, outcomeUnknown);
}
