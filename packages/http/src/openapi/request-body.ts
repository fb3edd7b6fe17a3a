import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from '../schemas/common.js';
import type { RouteDef } from '../routes/route.js';

/** A file's bytes, as the document describes a file part or a raw upload. */
export const BINARY = { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' } as const;

/** An operation's request body: a raw upload, a multipart form with its file part, or JSON. */
export function requestBody(r: RouteDef): NonNullable<RouteConfig['request']>['body'] | undefined {
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
