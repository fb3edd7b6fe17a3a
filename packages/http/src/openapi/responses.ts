import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from '../schemas/common.js';
import type { ApiForm } from '../forms/form.js';
import type { RouteDef } from '../routes/route.js';
import { rateLimitHeaders } from './common-parts.js';
import type { FormAnswers } from './form-answers.js';
import { BINARY } from './request-body.js';

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

/** An operation's answers: its success, every error it may give, and the form's answers before any operation. */
export function responsesFor(r: RouteDef, form: ApiForm, errorRef: z.ZodType, answers: FormAnswers): Responses {
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
