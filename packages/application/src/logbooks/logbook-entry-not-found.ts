import { DomainError } from '@fundi/domain';

/** 404 for a logbook entry that does not exist in the tenant. */
export const logbookEntryNotFound = (id: string) => DomainError.notFound('logbook entry', id);
