import type { PageRequest } from '@fundi/domain';
import { z } from '../schemas/common.js';
import { codesFor } from './error-table.js';
import { DEFAULT_LIMIT, MAX_LIMIT, firstSegment, pagingInt, type ApiForm } from './form.js';
import { INTERNAL } from './error-table.js';

const ErrorB = z
  .object({
    error: z
      .object({
        code: z.string().openapi({ example: 'VALIDATION_ERROR' }),
        message: z.string(),
        details: z
          .object({ field: z.string(), reason: z.string() })
          .partial()
          .openapi({ description: 'The first failing field; empty when the error concerns no field' }),
        errors: z
          .array(z.object({ field: z.string(), reason: z.string() }))
          .optional()
          .openapi({ description: 'Every failing field' }),
      })
      .catchall(z.unknown()),
  })
  .openapi('ErrorB', { description: 'Form B error envelope' });

const PaginationB = z
  .object({
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    hasMore: z.boolean(),
  })
  .openapi('OffsetPagination');

export function formB(): ApiForm {
  return {
    name: 'B',
    prefixes: ['/api/v1/tenants/:slug', '/v1/tenants/:slug'],
    // `/v1/tenants/{slug}/...` serves the same operations; the document names it once, in its description, so a
    // generated client is not three times the size.
    openApiMounts: [{ prefix: '/api/v1/tenants/{slug}', suffix: 'ByTenant' }],
    openApiPathParams: z.object({
      slug: z.string().openapi({ description: "Tenant slug; must be the API key's own tenant", example: 'demo' }),
    }),
    resourceOf: (path) => {
      const rest = path.startsWith('/api/v1/tenants/')
        ? path.slice(16)
        : path.startsWith('/v1/tenants/')
          ? path.slice(12)
          : null;
      const slash = rest === null ? -1 : rest.indexOf('/');
      return slash < 0 ? null : firstSegment(rest!.slice(slash + 1));
    },
    ownsPath: (path) => path.startsWith('/api/v1/tenants/') || path.startsWith('/v1/'),
    internalError: () => ({ error: { code: INTERNAL.B, message: 'Internal error', details: {} } }),
    validationStatus: 400,
    pageQuery: z.object({
      limit: pagingInt(1, MAX_LIMIT, 'Page size', DEFAULT_LIMIT),
      offset: pagingInt(0, 10_000_000, 'Items to skip', 0),
    }),
    paginationSchema: PaginationB,
    errorSchema: ErrorB,

    toPage(q, _scope): PageRequest {
      return {
        kind: 'offset',
        offset: (q.offset as number | undefined) ?? 0,
        limit: (q.limit as number | undefined) ?? DEFAULT_LIMIT,
      };
    },

    envelope(page, request) {
      const r = request as Extract<PageRequest, { kind: 'offset' }>;
      return {
        data: page.items,
        pagination: { total: page.total, limit: r.limit, offset: r.offset, hasMore: page.hasMore },
      };
    },

    error(e) {
      const c = codesFor(e, 400);
      const all = e.details.map((d) => ({ field: d.field, reason: d.message }));
      const error: Record<string, unknown> = { code: c.B, message: e.message, details: all[0] ?? {}, ...e.meta };
      if (all.length > 1) error.errors = all;
      return { status: c.status, body: { error } };
    },
  };
}
