import busboy from 'busboy';
import { DomainError, UNSAFE_FILE_NAME_MESSAGE, UNSAFE_TEXT_MESSAGE, isSafeFileName, isSafeText } from '@fundi/domain';
import type { Context } from 'koa';
import type { IncomingFile, Upload } from '../routes/route.js';
import { watchBodyProgress } from './body-progress.js';
import { ByteLimit, discard } from './upload.js';

const MULTIPART = /^multipart\/form-data\s*;/i;

/** What a multipart body holds, as soon as its file part begins. */
export interface MultipartBody {
  /** The text fields before the file part. */
  fields: Record<string, string>;
  /** The file part, limited to `maxBytes`. */
  file: IncomingFile;
  /**
   * The text fields after the file part, once the body has ended (so only after `file.stream` has been read to
   * its end). Fails as invalid input when one repeats a field, when a second file part follows, or when the body
   * breaks off after a field behind the file. Never fails unhandled: awaiting it is optional.
   */
  later: Promise<Record<string, string>>;
}

/**
 * Reads a multipart body up to its file part: resolves with the text fields seen so far and the file part as a
 * stream (limited to `maxBytes`), and keeps reading behind the file for the fields after it (`later`). A body
 * without the file part is invalid input naming the field. A body that sends nothing for `idleMs` fails with 408:
 * the answer itself before the file part, the file's stream and `later` after it.
 */
export function multipartUpload(
  ctx: Context,
  spec: Extract<Upload, { kind: 'multipart' }>,
  idleMs: number,
): Promise<MultipartBody> {
  const type = ctx.get('content-type');
  if (!MULTIPART.test(type)) {
    discard(ctx.req);
    return Promise.reject(
      new DomainError('invalid', 'unsupported_media_type', 'The body must be multipart/form-data with a file part'),
    );
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: ctx.req.headers,
        defParamCharset: 'utf8',
        // One byte past the limit tells ByteLimit the file is too large; busboy reads no further than that.
        limits: { files: 1, fileSize: spec.maxBytes + 1, fields: 50, fieldSize: 64 * 1024, parts: 60, headerPairs: 50 },
      });
    } catch {
      discard(ctx.req);
      reject(DomainError.invalid('body', 'is not a valid multipart body'));
      return;
    }
    const fields: Record<string, string> = {};
    const after: Record<string, string> = {};
    // Before the file part: the answer itself. After it: the fields behind the file.
    let stage: 'fields' | 'after' | 'done' = 'fields';
    let endLater: { ok: (f: Record<string, string>) => void; fail: (e: unknown) => void } | null = null;
    let file: ByteLimit | null = null;
    const later = new Promise<Record<string, string>>((ok, fail) => {
      endLater = { ok, fail };
    });
    later.catch(() => {});
    const fail = (e: unknown) => {
      if (stage === 'done') return;
      const was = stage;
      stage = 'done';
      discard(ctx.req);
      if (was === 'fields') reject(e);
      else endLater!.fail(e);
    };
    parser.on('field', (name, value, info) => {
      if (stage === 'done') return;
      if (info.valueTruncated) fail(DomainError.invalid(name, 'is longer than 65536 bytes'));
      // Every field keeps the text rule (docs/api.md, "Text"), the dashboard's uploads' as much as the API's.
      else if (!isSafeText(name)) fail(DomainError.invalid('body', 'has a field name with a control character'));
      else if (!isSafeText(value)) fail(DomainError.invalid(name, UNSAFE_TEXT_MESSAGE));
      else if (stage === 'fields') fields[name] = value;
      else if (Object.hasOwn(fields, name) || Object.hasOwn(after, name))
        fail(DomainError.invalid(name, 'is given more than once'));
      else after[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (stage !== 'fields' || name !== spec.field) {
        stream.resume();
        return;
      }
      // The part's own file name keeps the text rule and holds no line break or tab: refused before a byte is read.
      if (info.filename !== undefined && !isSafeFileName(info.filename)) {
        stream.resume();
        fail(DomainError.invalid(name, `has a file name that ${UNSAFE_FILE_NAME_MESSAGE}`));
        return;
      }
      stage = 'after';
      const limit = (file = new ByteLimit(spec.maxBytes));
      stream.on('error', (e) => limit.destroy(e));
      limit.on('error', () => discard(ctx.req));
      stream.pipe(limit);
      resolve({
        fields,
        file: {
          stream: limit,
          filename: info.filename ?? null,
          declaredType: info.mimeType || null,
          declaredSize: null,
        },
        later,
      });
    });
    parser.on('filesLimit', () => {
      if (stage === 'after') fail(DomainError.invalid(spec.field, 'must be the only file part of the body'));
    });
    parser.on('error', () => {
      // A body cut off right after the file part (no closing boundary) was always taken: it ends there.
      if (stage === 'after' && Object.keys(after).length === 0) {
        stage = 'done';
        endLater!.ok(after);
      } else fail(DomainError.invalid('body', 'is not a valid multipart body'));
    });
    parser.on('close', () => {
      if (stage === 'after') {
        stage = 'done';
        endLater!.ok(after);
      } else fail(DomainError.invalid(spec.field, 'is required: a file part'));
    });
    // A client gone or silent mid-file fails the file's stream too: its reader (the store) stops and keeps nothing.
    const broken = (e: unknown) => {
      file?.destroy(e instanceof Error ? e : new Error(String(e)));
      fail(e);
    };
    ctx.req.on('error', broken);
    ctx.req.pipe(parser);
    const stopWatching = watchBodyProgress(ctx.req, idleMs, broken);
    parser.once('close', stopWatching);
  });
}
