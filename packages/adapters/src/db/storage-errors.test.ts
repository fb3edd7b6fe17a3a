import { DomainError, isStorageUnavailable } from '@fundi/domain';
import { describe, expect, it } from 'vitest';
import { isPostgresConnectionError, isSqliteUnavailable, storageError } from './storage-errors.js';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('storage outage classification', () => {
  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection because of crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['53300', 'sorry, too many clients already'],
    ['08006', 'connection failure'],
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'],
    ['ECONNRESET', 'read ECONNRESET'],
  ])('Postgres %s is an outage', (code, message) => {
    expect(isPostgresConnectionError(pgError(code, message))).toBe(true);
  });

  it.each([
    'Connection terminated unexpectedly',
    'Connection terminated',
    'Connection terminated due to connection timeout',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error and is not queryable',
  ])('node-postgres "%s" is an outage', (message) => {
    expect(isPostgresConnectionError(new Error(message))).toBe(true);
  });

  it.each(['23505', '40001', '42P01', '0A000', '57014'])('Postgres %s is not', (code) => {
    expect(isPostgresConnectionError(pgError(code))).toBe(false);
  });

  it.each([
    'SQLITE_BUSY',
    'SQLITE_BUSY_SNAPSHOT',
    'SQLITE_LOCKED',
    'SQLITE_IOERR_WRITE',
    'SQLITE_FULL',
    'SQLITE_CANTOPEN',
  ])('SQLite %s is an outage', (code) => expect(isSqliteUnavailable(pgError(code))).toBe(true));

  it.each(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CORRUPT', 'SQLITE_ERROR', 'SQLITE_MISUSE'])('SQLite %s is not', (code) =>
    expect(isSqliteUnavailable(pgError(code))).toBe(false),
  );

  it('wraps an outage once, keeping the driver error as the cause, and leaves everything else as it is', () => {
    const cause = pgError('57P01');
    const e = storageError(cause, isPostgresConnectionError);
    expect(e).toMatchObject({ kind: 'unavailable', code: 'storage_unavailable', cause });
    expect(storageError(e, isPostgresConnectionError)).toBe(e);
    expect(storageError(cause, isPostgresConnectionError, true)).toMatchObject({ code: 'storage_outcome_unknown' });
    const unique = pgError('23505');
    expect(storageError(unique, isPostgresConnectionError)).toBe(unique);
    const conflict = DomainError.conflict('x', 'y');
    expect(isStorageUnavailable(storageError(conflict, isPostgresConnectionError))).toBe(false);
  });
});
