import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { DomainError } from '@fundi/domain';
import type { Context } from 'koa';
import type { IncomingFile, Upload } from '../routes/route.js';
import { watchBodyProgress } from './body-progress.js';

export function payloadTooLarge(maxBytes: number): DomainError {
  return new DomainError('invalid', 'payload_too_large', `The file exceeds the limit of ${maxBytes} bytes`, [], {
    maxBytes,
  });
}

/** Passes bytes through and fails with 413 as soon as more than `maxBytes` have passed; nothing past it is read. */
export class ByteLimit extends Transform {
  private seen = 0;
  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) done(payloadTooLarge(this.maxBytes));
    else done(null, chunk);
  }
}

/** The declared `Content-Length`, or null. */
function declaredLength(ctx: Context): number | null {
  const raw = ctx.get('content-length');
  return raw && /^\d+$/.test(raw) ? Number(raw) : null;
}

/** Stops reading the request: what is still in flight is discarded by Node, nothing is kept. */
export function discard(req: Readable): void {
  req.unpipe();
  req.resume();
}

/**
 * A raw body as a file: refused at once when its declared length is over the limit, cut off when it passes it, and
 * failed with 408 when it sends nothing for `idleMs`.
 */
export function rawUpload(ctx: Context, spec: Extract<Upload, { kind: 'raw' }>, idleMs: number): IncomingFile {
  const declared = declaredLength(ctx);
  if (declared !== null && declared > spec.maxBytes) {
    discard(ctx.req);
    throw payloadTooLarge(spec.maxBytes);
  }
  const type = ctx.get('content-type') || null;
  if (spec.contentTypes && !spec.contentTypes.includes((type ?? '').split(';')[0]!.trim().toLowerCase())) {
    discard(ctx.req);
    throw new DomainError(
      'invalid',
      'unsupported_media_type',
      `Content-Type must be one of: ${spec.contentTypes.join(', ')}`,
    );
  }
  const limit = new ByteLimit(spec.maxBytes);
  ctx.req.on('error', (e) => limit.destroy(e));
  limit.on('error', () => discard(ctx.req));
  ctx.req.pipe(limit);
  const stopWatching = watchBodyProgress(ctx.req, idleMs, (e) => limit.destroy(e));
  limit.once('close', stopWatching);
  return { stream: limit, filename: null, declaredType: type, declaredSize: declared };
}
