import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from '../schemas/common.js';
import type { ApiForm } from '../forms/form.js';
import type { RouteDef } from '../routes/route.js';
import { rateLimitHeaders, registerCommon } from './common-parts.js';

type Responses = RouteConfig['responses'];

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (Form B)', 401: 'Missing, unknown, expired or revoked API key',
  403: 'Insufficient scope, or a key used under another tenant\'s slug', 404: 'Not found (also another tenant\'s resource)',
  409: 'Conflict: duplicate or illegal state change', 413: 'Payload too large', 415: 'Unsupported media type',
  422: 'Invalid input (Form A)', 429: 'Rate limit exceeded; see Retry-After', 500: 'Internal error',
};

/** Suffixes keep operationIds unique across the three mounts of a route. */
const MOUNTS = (form: ApiForm) => form.name === 'A'
  ? [{ prefix: '/api/v1', suffix: '' }]
  : [{ prefix: '/api/v1/tenants/{slug}', suffix: 'ByTenant' }, { prefix: '/v1/tenants/{slug}', suffix: 'ByTenantV1' }];

function responsesFor(r: RouteDef, form: ApiForm, errorRef: z.ZodType): Responses {
  const headers = rateLimitHeaders();
  const out: Responses = {};
  if (r.list) {
    out[String(r.success.status)] = {
      description: r.success.description, headers,
      content: { 'application/json': { schema: z.object({ data: z.array(r.list.item), pagination: form.paginationSchema }) } },
    };
  } else {
    out[String(r.success.status)] = r.success.schema
      ? { description: r.success.description, headers, content: { 'application/json': { schema: r.success.schema } } }
      : { description: r.success.description, headers };
  }
  const statuses = new Set<number>([401, 403, 429, 500, ...(r.errors ?? [])]);
  if (r.body || r.query || r.params || r.list) statuses.add(form.validationStatus);
  // Every JSON body is read with a size cap (middleware/json-body.ts), answered 413 when exceeded.
  if (r.body) statuses.add(413);
  for (const s of [...statuses].sort()) {
    out[String(s)] = { description: DESCRIPTIONS[s] ?? 'Error', headers, content: { 'application/json': { schema: errorRef } } };
  }
  return out;
}

/** One OpenAPI 3.1 document for both forms, walked from the same route list that serves them (D1). */
export function buildOpenApi(routes: readonly RouteDef[], forms: { a: ApiForm; b: ApiForm }, extend?: (reg: OpenAPIRegistry) => void): object {
  const registry = new OpenAPIRegistry();
  registerCommon(registry);
  const slug = z.object({ slug: z.string().openapi({ description: 'Tenant slug; must be the API key\'s own tenant', example: 'demo' }) });
  for (const form of [forms.a, forms.b]) {
    const errorRef = registry.register(form.name === 'A' ? 'ErrorA' : 'ErrorB', form.errorSchema);
    for (const m of MOUNTS(form)) {
      for (const r of routes) {
        const params = form.name === 'B' ? (r.params ? slug.extend(r.params.shape) : slug) : r.params;
        const query = r.list ? (r.query ?? z.object({})).extend(form.pageQuery.shape) : r.query;
        registry.registerPath({
          method: r.method,
          path: `${m.prefix}${r.path}`,
          operationId: `${r.operationId}${m.suffix}`,
          summary: r.summary,
          description: [r.description, `Form ${form.name}. Requires scope \`${r.scope}\`.`].filter(Boolean).join('\n\n'),
          tags: [r.tag],
          security: [{ bearerAuth: [] }],
          request: {
            ...(params ? { params } : {}),
            ...(query ? { query } : {}),
            ...(r.body ? { body: { required: true, content: { 'application/json': { schema: r.body } } } } : {}),
          },
          responses: responsesFor(r, form, errorRef),
        });
      }
    }
  }
  extend?.(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Fundi API',
      version: '1.0.0-beta',
      description: 'Learner, enrolment, assessment and evidence management for South African skills-development providers. '
        + 'Form A (`/api/v1/...`) takes the tenant from the API key and pages by cursor; Form B (`/api/v1/tenants/{slug}/...` '
        + 'and `/v1/tenants/{slug}/...`) names the tenant in the path and pages by offset. Both forms serve every operation.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name, description: `${name} operations` })),
    security: [{ bearerAuth: [] }],
  });
}
