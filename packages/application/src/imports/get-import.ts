import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { ImportDeps } from './import-ports.js';
import { importView, type ImportWithErrors } from './import-view.js';
import { ERRORS_CURSOR, findImport, openErrorsCursor } from './import-queries.js';

/**
 * The import with one page of its errors (`limit` at most 1,000), from `offset` or from `cursor` (the signed
 * position a previous page gave, bound to the tenant and this import; anything else is invalid input).
 */
export class GetImport {
  constructor(private readonly d: ImportDeps) {}

  async execute(
    actor: Actor,
    id: string,
    page: { limit: number; offset?: number; cursor?: string },
  ): Promise<ImportWithErrors> {
    if (page.offset !== undefined && page.cursor !== undefined)
      throw DomainError.invalid('errorsCursor', 'give errorsCursor or errorsOffset, not both');
    const imp = await findImport(this.d, actor, id);
    const offset =
      page.cursor === undefined ? (page.offset ?? 0) : openErrorsCursor(this.d, actor, imp.id, page.cursor);
    const errors = await this.d.repos.imports.errors(imp.id, offset, page.limit);
    const hasMore = offset + errors.length < imp.errorCount;
    const next = `${actor.tenantId}|${imp.id}|${offset + errors.length}`;
    return {
      ...importView(imp),
      errors,
      errorsPage: {
        offset,
        limit: page.limit,
        total: imp.errorCount,
        hasMore,
        nextCursor: hasMore ? this.d.cursors.sign(next, ERRORS_CURSOR) : null,
      },
    };
  }
}
