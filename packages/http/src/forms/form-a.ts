import { createHash } from 'node:crypto';
import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import { z } from '../schemas/common.js';
import { codesFor } from './error-table.js';
import { DEFAULT_LIMIT, MAX_LIMIT, firstSegment, pagingInt, type ApiForm } from './form.js';
import { INTERNAL } from './error-table.js';

/**
 * Signs and checks the opaque cursor; a tampered cursor, or one issued for another tenant or other filters, is
 * invalid input (docs/api.md, "Two API forms").
 */
export interface CursorCodec {
  encode(lastId: string): string;
  decode(cursor: string): string | null;
}

const limit = pagingInt(1, MAX_LIMIT, 'Page size', DEFAULT_LIMIT);

const ErrorA = z
  .object({
    error: z
      .object({
        code: z.string().openapi({ example: 'validation_error' }),
        message: z.string(),
        details: z.array(z.object({ field: z.string(), message: z.string() })),
      })
      .catchall(z.unknown()),
  })
  .openapi('ErrorA', { description: 'Form A error envelope' });

const PaginationA = z
  .object({
    hasMore: z.boolean(),
    nextCursor: z.string().nullable(),
    total: z.number().int(),
  })
  .openapi('CursorPagination');

/** A short digest of a page's scope, carried (signed) in its cursors. */
function scopeHash(scope: string): string {
  return createHash('sha256').update(scope).digest('base64url').slice(0, 12);
}

export function formA(cursors: CursorCodec): ApiForm {
  return {
    name: 'A',
    prefixes: ['/api/v1'],
    openApiMounts: [{ prefix: '/api/v1', suffix: '' }],
    resourceOf: (path) =>
      path.startsWith('/api/v1/') && !path.startsWith('/api/v1/tenants/') ? firstSegment(path.slice(8)) : null,
    ownsPath: (path) => !(path.startsWith('/api/v1/tenants/') || path.startsWith('/v1/')),
    internalError: () => ({ error: { code: INTERNAL.A, message: 'Internal error', details: [] } }),
    validationStatus: 422,
    pageQuery: z.object({
      limit,
      cursor: z.string().max(200).optional().openapi({ description: 'Opaque cursor from `pagination.nextCursor`' }),
    }),
    paginationSchema: PaginationA,
    errorSchema: ErrorA,

    toPage(q, scope): PageRequest {
      let after: string | null = null;
      if (typeof q.cursor === 'string') {
        const decoded = cursors.decode(q.cursor);
        if (decoded === null) throw DomainError.invalid('cursor', 'is not a valid cursor');
        const cut = decoded.lastIndexOf('~');
        if (cut < 0 || decoded.slice(cut + 1) !== scopeHash(scope)) {
          throw DomainError.invalid('cursor', 'was issued for another tenant or other filters: start again without it');
        }
        after = decoded.slice(0, cut);
      }
      return { kind: 'cursor', after, limit: (q.limit as number | undefined) ?? DEFAULT_LIMIT };
    },

    envelope(page: Page<unknown>, _request, scope, cursorKey = 'id') {
      const last = page.items[page.items.length - 1] as Record<string, unknown> | undefined;
      const key = last?.[cursorKey];
      return {
        data: page.items,
        pagination: {
          hasMore: page.hasMore,
          nextCursor:
            page.hasMore && (typeof key === 'string' || typeof key === 'number') && key !== ''
              ? cursors.encode(`${key}~${scopeHash(scope)}`)
              : null,
          total: page.total,
        },
      };
    },

    error(e) {
      const c = codesFor(e, 422);
      return { status: c.status, body: { error: { code: c.A, message: e.message, details: e.details, ...e.meta } } };
    },
  };
}
