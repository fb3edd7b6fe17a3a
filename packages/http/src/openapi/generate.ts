import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from '../schemas/common.js';
import type { ApiForm } from '../forms/form.js';
import type { RouteDef } from '../routes/route.js';
import { rateLimitHeaders, registerCommon } from './common-parts.js';

type Responses = RouteConfig['responses'];

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (Form B)',
  401: 'Missing, unknown, expired or revoked API key',
  403: "Insufficient scope, or a key used under another tenant's slug",
  404: "Not found (also another tenant's resource)",
  408: 'The request body sent nothing for the body timeout; the connection is closed',
  409: 'Conflict: duplicate or illegal state change',
  410: 'Gone',
  413: 'Payload too large',
  415: 'Unsupported media type',
  416: 'Range not satisfiable',
  422: 'Invalid input (Form A)',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Internal error',
  503: 'The database cannot be reached just now; retry after Retry-After seconds',
};

const RETRY_AFTER: Record<number, { description: string; schema: { type: 'integer' } }> = {
  429: { description: 'Seconds until the exceeded window resets', schema: { type: 'integer' } },
  503: { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
};

const BINARY = { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' } as const;

function successResponse(r: RouteDef, form: ApiForm, headers: ReturnType<typeof rateLimitHeaders>): Responses {
  const s = r.success;
  const status = String(s.status);
  if (r.list) {
    return {
      [status]: {
        description: s.description,
        headers,
        content: {
          'application/json': { schema: z.object({ data: z.array(r.list.item), pagination: form.paginationSchema }) },
        },
      },
    };
  }
  if ('schema' in s) {
    const withLocation =
      s.status === 201
        ? {
            ...headers,
            Location: {
              description: 'Where the created resource is read, under the prefix the request came through',
              required: true,
              schema: { type: 'string' as const },
            },
          }
        : headers;
    return {
      ...(s.alternate
        ? {
            [String(s.alternate.status)]: {
              description: s.alternate.description,
              headers,
              content: { 'application/json': { schema: s.schema } },
            },
          }
        : {}),
      [status]: {
        description: s.description,
        headers: withLocation,
        content: { 'application/json': { schema: s.schema } },
      },
    };
  }
  if (!('file' in s)) return { [status]: { description: s.description, headers } };
  const fileHeaders = {
    ...headers,
    'Content-Disposition': {
      description: 'RFC 6266: `attachment; filename="..."; filename*=UTF-8\'\'...`',
      schema: { type: 'string' as const },
    },
    ...(s.file.ranges
      ? {
          ETag: { description: "Strong validator of the file's bytes", schema: { type: 'string' as const } },
          'Accept-Ranges': { description: '`bytes`', schema: { type: 'string' as const } },
        }
      : {}),
  };
  const content = Object.fromEntries(
    s.file.contentTypes.map((t) => [t, { schema: t.startsWith('text/') ? { type: 'string' as const } : BINARY }]),
  );
  const out: Responses = { [status]: { description: s.description, headers: fileHeaders, content } };
  if (s.file.ranges) {
    out['206'] = {
      description: 'The requested byte range (`Range: bytes=...`)',
      headers: {
        ...fileHeaders,
        'Content-Range': { description: '`bytes start-end/size`', schema: { type: 'string' } },
      },
      content,
    };
    out['304'] = { description: 'Not modified (`If-None-Match` matched the ETag)', headers };
  }
  return out;
}

/** A response component by reference. */
type Ref = { $ref: string };

/** The answers a form may give to any request before its operation runs, as response components. */
interface FormAnswers {
  methodNotAllowed: Ref;
  headersTooLarge: Ref;
}

/**
 * Registers the form's answers that come before any operation (docs/api.md, "Two API forms"): 405 for a method a
 * known path does not take (after the key check, so with the rate-limit headers, and `Allow`), and 431 for
 * headers over Node's limit, refused before routing (so without them).
 */
function registerFormAnswers(registry: OpenAPIRegistry, form: ApiForm): FormAnswers {
  const error = { 'application/json': { schema: { $ref: `#/components/schemas/Error${form.name}` } } };
  const methodNotAllowed = registry.registerComponent('responses', `MethodNotAllowed${form.name}`, {
    description: `The path exists but does not take the request's method (Form ${form.name})`,
    headers: {
      ...rateLimitHeaders(),
      Allow: { description: 'The methods the path takes', required: true, schema: { type: 'string' } },
    },
    content: error,
  });
  const headersTooLarge = registry.registerComponent('responses', `HeadersTooLarge${form.name}`, {
    description: `The request's headers exceed 16 KB; refused before routing (Form ${form.name})`,
    content: error,
  });
  return { methodNotAllowed: methodNotAllowed.ref, headersTooLarge: headersTooLarge.ref };
}

function responsesFor(r: RouteDef, form: ApiForm, errorRef: z.ZodType, answers: FormAnswers): Responses {
  const headers = rateLimitHeaders();
  const out = successResponse(r, form, headers);
  const statuses = new Set<number>([429, 500, 503, ...(r.auth === 'none' ? [] : [401, 403]), ...(r.errors ?? [])]);
  // Writes always have their body read (an action without fields must get none or `{}`), capped, answered 413,
  // and answered 408 when it stalls.
  const writes = r.method !== 'get' && r.method !== 'delete';
  if (writes || r.query || r.params || r.list) statuses.add(form.validationStatus);
  if (writes) {
    statuses.add(408);
    statuses.add(413);
  }
  if (r.upload) statuses.add(415);
  if ('file' in r.success && r.success.file.ranges) statuses.add(416);
  for (const s of [...statuses].sort()) {
    const answer = {
      description: DESCRIPTIONS[s] ?? 'Error',
      headers: RETRY_AFTER[s] ? { ...headers, 'Retry-After': RETRY_AFTER[s] } : headers,
      content: { 'application/json': { schema: errorRef } },
    };
    // A 416 keeps its Content-Range header and gains the error body.
    out[String(s)] =
      s === 416
        ? {
            ...answer,
            headers: {
              ...headers,
              'Content-Range': { description: "`bytes */size`: the file's size", schema: { type: 'string' } },
            },
          }
        : answer;
  }
  out['405'] = answers.methodNotAllowed;
  out['431'] = answers.headersTooLarge;
  return out;
}

function requestBody(r: RouteDef): NonNullable<RouteConfig['request']>['body'] | undefined {
  if (r.upload?.kind === 'raw') {
    const types = r.upload.contentTypes ?? ['application/octet-stream'];
    return {
      required: true,
      description: r.upload.description ?? `The file's bytes, at most ${r.upload.maxBytes} bytes`,
      content: Object.fromEntries(types.map((t) => [t, { schema: BINARY }])),
    };
  }
  if (r.upload?.kind === 'multipart') {
    const fields = r.body instanceof z.ZodObject ? r.body : z.object({});
    // The file part is required; its schema only describes it (the route's `body` validates the text fields).
    const schema = fields.extend({
      [r.upload.field]: z.string().openapi({
        ...BINARY,
        description:
          r.upload.description ??
          `The file, at most ${r.upload.maxBytes} bytes. Text fields may come before or after it, in any order: those before it are checked before it is read, those after it once the body has ended, and a refused upload keeps nothing.`,
      }),
    });
    return { required: true, content: { 'multipart/form-data': { schema } } };
  }
  if (!r.body) return undefined;
  // A body whose fields are all optional (action routes) may be left out: an empty body reads as `{}`.
  const required =
    !(r.body instanceof z.ZodObject) ||
    Object.values(r.body.shape).some((f) => !(f as z.ZodType).safeParse(undefined).success);
  return { required, content: { 'application/json': { schema: r.body } } };
}

/** One OpenAPI 3.1 document for both forms, walked from the same route list that serves them. */
export function buildOpenApi(
  routes: readonly RouteDef[],
  forms: { a: ApiForm; b: ApiForm },
  extend?: (reg: OpenAPIRegistry) => void,
): object {
  const registry = new OpenAPIRegistry();
  registerCommon(registry);
  for (const form of [forms.a, forms.b]) {
    const errorRef = registry.register(`Error${form.name}`, form.errorSchema);
    const answers = registerFormAnswers(registry, form);
    const formParams = form.openApiPathParams;
    for (const m of form.openApiMounts) {
      for (const r of routes) {
        const params = formParams ? (r.params ? formParams.extend(r.params.shape) : formParams) : r.params;
        const body = requestBody(r);
        const query = r.list ? (r.query ?? z.object({})).extend(form.pageQuery.shape) : r.query;
        registry.registerPath({
          method: r.method,
          path: `${m.prefix}${r.path}`,
          operationId: `${r.operationId}${m.suffix}`,
          summary: r.summary,
          description: [
            r.description,
            `Form ${form.name}. ${r.auth === 'none' ? 'No API key: the signed URL is the credential.' : r.scope === 'any' ? 'Any valid API key.' : `Requires scope \`${r.scope}\`.`}`,
          ]
            .filter(Boolean)
            .join('\n\n'),
          tags: [r.tag],
          security: r.auth === 'none' ? [] : [{ bearerAuth: [] }],
          request: {
            ...(params ? { params } : {}),
            ...(query ? { query } : {}),
            ...(body ? { body } : {}),
          },
          responses: responsesFor(r, form, errorRef, answers),
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
      description:
        'Learner, enrolment, assessment and evidence management for South African skills-development providers. ' +
        'Form A (`/api/v1/...`) takes the tenant from the API key and pages by cursor; Form B (`/api/v1/tenants/{slug}/...` ' +
        'and its alias `/v1/tenants/{slug}/...`, served identically but not listed again here) names the tenant in the path ' +
        'and pages by offset. Both forms serve every operation.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name, description: `${name} operations` })),
    security: [{ bearerAuth: [] }],
  });
}
