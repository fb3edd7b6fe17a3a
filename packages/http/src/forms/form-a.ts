import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import { z } from '../schemas/common.js';
import { codesFor } from './error-table.js';
import { DEFAULT_LIMIT, MAX_LIMIT, firstSegment, type ApiForm } from './form.js';
import { INTERNAL } from './error-table.js';

/** Signs and checks the opaque cursor; a tampered or foreign cursor is invalid input. */
export interface CursorCodec {
  encode(lastId: string): string;
  decode(cursor: string): string | null;
}

const limit = z.coerce.number().int().min(1).max(MAX_LIMIT).optional()
  .openapi({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'Page size' });

const ErrorA = z.object({
  error: z.object({
    code: z.string().openapi({ example: 'validation_error' }),
    message: z.string(),
    details: z.array(z.object({ field: z.string(), message: z.string() })),
  }).catchall(z.unknown()),
}).openapi('ErrorA', { description: 'Form A error envelope' });

const PaginationA = z.object({
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
  total: z.number().int(),
}).openapi('CursorPagination');

export function formA(cursors: CursorCodec): ApiForm {
  return {
    name: 'A',
    prefixes: ['/api/v1'],
    openApiMounts: [{ prefix: '/api/v1', suffix: '' }],
    resourceOf: (path) => (path.startsWith('/api/v1/') && !path.startsWith('/api/v1/tenants/') ? firstSegment(path.slice(8)) : null),
    ownsPath: (path) => !(path.startsWith('/api/v1/tenants/') || path.startsWith('/v1/')),
    internalError: () => ({ error: { code: INTERNAL.A, message: 'Internal error', details: [] } }),
    validationStatus: 422,
    pageQuery: z.object({ limit, cursor: z.string().max(200).optional().openapi({ description: 'Opaque cursor from `pagination.nextCursor`' }) }),
    paginationSchema: PaginationA,
    errorSchema: ErrorA,

    toPage(q): PageRequest {
      let after: string | null = null;
      if (typeof q.cursor === 'string') {
        after = cursors.decode(q.cursor);
        if (after === null) throw DomainError.invalid('cursor', 'is not a valid cursor');
      }
      return { kind: 'cursor', after, limit: (q.limit as number | undefined) ?? DEFAULT_LIMIT };
    },

    envelope(page: Page<unknown>) {
      const last = page.items[page.items.length - 1] as { id?: string } | undefined;
      return {
        data: page.items,
        pagination: { hasMore: page.hasMore, nextCursor: page.hasMore && last?.id ? cursors.encode(last.id) : null, total: page.total },
      };
    },

    error(e) {
      const c = codesFor(e, 422);
      return { status: c.status, body: { error: { code: c.A, message: e.message, details: e.details, ...e.meta } } };
    },
  };
}
