import { DomainError } from '@fundi/domain';
import { csvLine } from '../files/csv.js';
import type { Actor } from '../common/actor.js';
import type { ImportDeps } from './import-ports.js';

/** The signing purpose of error-page cursors (a list cursor or a file URL never passes for one). */
export const ERRORS_CURSOR = 'import-errors';

// One rule for every CSV the service writes (docs/api.md, "Files in requests and answers"): formula-like text is
// defused.
export const line = (cells: (string | number)[]) => csvLine(cells);

/** The import of the caller's tenant, or `not_found`. */
export async function findImport(d: Pick<ImportDeps, 'repos'>, actor: Actor, id: string) {
  const imp = await d.repos.imports.findById(actor.tenantId, id);
  if (!imp) throw DomainError.notFound('import', id);
  return imp;
}

/** The offset a signed errors cursor holds, bound to the tenant and this import; anything else is invalid input. */
export function openErrorsCursor(
  d: Pick<ImportDeps, 'cursors'>,
  actor: Actor,
  importId: string,
  cursor: string,
): number {
  const [tenantId, id, at, extra] = (d.cursors.verify(cursor, ERRORS_CURSOR) ?? '').split('|');
  if (tenantId !== actor.tenantId || id !== importId || extra !== undefined || !/^\d{1,9}$/.test(at ?? ''))
    throw DomainError.invalid('errorsCursor', "is not a cursor of this import's errors: start again without it");
  return Number(at);
}
