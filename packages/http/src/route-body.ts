import { UploadFields } from '@fundi/application';
import type { Context } from 'koa';
import { z } from './schemas/common.js';
import type { IncomingFile, RouteDef } from './routes/route.js';
import { readJson } from './middleware/json-body.js';
import { validate } from './middleware/validate.js';
import { multipartUpload } from './middleware/multipart-upload.js';
import { rawUpload } from './middleware/upload.js';

const NO_BODY = z.object({}).strict();

/**
 * A multipart upload's text fields (route.ts, `Upload`). Those before the file are checked at once: a bad one is
 * refused before the file is read, with the error the whole body would get; a missing one may still come after the
 * file. Every field is validated together once the body has ended.
 */
function uploadFields(schema: z.ZodType, before: Record<string, string>, later: Promise<Record<string, string>>) {
  try {
    validate(schema instanceof z.ZodObject ? schema.partial() : schema, before, 'body');
  } catch {
    validate(schema, before, 'body');
  }
  const parsed = schema.safeParse(before);
  const whole = parsed.success ? parsed.data : null;
  // Nothing after the file: the early fields are all of them (the same object, so they are not checked again).
  const all = later.then((after) =>
    whole !== null && Object.keys(after).length === 0 ? whole : validate(schema, { ...before, ...after }, 'body'),
  );
  return new UploadFields(whole, all);
}

/**
 * Reads the body the route declares: JSON, multipart fields plus a file stream, or a raw file stream. Each fails
 * with 408 once the client has sent nothing of it for `idleMs`.
 */
export async function readBody(
  ctx: Context,
  r: RouteDef,
  idleMs: number,
): Promise<{ body: unknown; file: IncomingFile | undefined }> {
  if (r.upload?.kind === 'raw') return { body: undefined, file: rawUpload(ctx, r.upload, idleMs) };
  if (r.upload?.kind === 'multipart') {
    const { fields, file, later } = await multipartUpload(ctx, r.upload, idleMs);
    try {
      return { body: r.body ? uploadFields(r.body, fields, later) : undefined, file };
    } catch (e) {
      file.stream.destroy();
      throw e;
    }
  }
  if (r.body) return { body: validate(r.body, await readJson(ctx, idleMs), 'body'), file: undefined };
  // A write without a declared body still has its body read, limited and checked: it must be empty or `{}`.
  if (r.method !== 'get' && r.method !== 'delete') validate(NO_BODY, await readJson(ctx, idleMs), 'body');
  return { body: undefined, file: undefined };
}
