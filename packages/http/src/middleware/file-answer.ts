import { DomainError, displayableFileName } from '@fundi/domain';
import type { Context } from 'koa';
import type { ByteRange, FileAnswer } from '../routes/route.js';

/**
 * `Content-Disposition` per RFC 6266: an ASCII `filename` fallback (anything else becomes `_`) and the name as UTF-8
 * in `filename*` (RFC 8187 percent-encoding), with the characters a file name may not hold (controls, line breaks,
 * direction overrides) made `_` in both, whatever the stored name holds.
 */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const filename = displayableFileName(name);
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return fallback === filename
    ? `${kind}; filename="${filename}"`
    : `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export type RangeAsk = { kind: 'full' } | { kind: 'range'; range: ByteRange } | { kind: 'unsatisfiable' };

/**
 * Reads a `Range` header against a file of `size` bytes (RFC 9110 14.2). One range only: a header naming several,
 * or one that does not parse, is ignored (the whole file is served, which the RFC allows). A range that starts at
 * or past the end, or a zero-length suffix, is unsatisfiable (416).
 */
export function parseRange(header: string | undefined, size: number): RangeAsk {
  if (!header) return { kind: 'full' };
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', range: { start, end } };
}

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === `"${etag}"`);
}

/** Writes a file answer: headers, conditional and ranged requests, then the (ranged) stream. */
export async function sendFile(ctx: Context, answer: FileAnswer): Promise<void> {
  ctx.set('Cache-Control', answer.cacheControl ?? 'private, no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  if (answer.filename)
    ctx.set('Content-Disposition', contentDisposition(answer.disposition ?? 'attachment', answer.filename));
  if (answer.etag) ctx.set('ETag', `"${answer.etag}"`);
  const size = answer.size;
  if (size === undefined) {
    ctx.status = 200;
    ctx.type = answer.contentType;
    if (ctx.method !== 'HEAD') ctx.body = await answer.open();
    return;
  }
  ctx.set('Accept-Ranges', 'bytes');
  const ifNoneMatch = ctx.get('if-none-match');
  if (answer.etag && ifNoneMatch && etagMatches(ifNoneMatch, answer.etag)) {
    ctx.status = 304;
    return;
  }
  // If-Range: a range applies only to the representation the client already holds.
  const ifRange = ctx.get('if-range');
  const rangeHeader =
    ifRange && (!answer.etag || ifRange.trim() !== `"${answer.etag}"`) ? undefined : ctx.get('range') || undefined;
  const ask = parseRange(rangeHeader, size);
  if (ask.kind === 'unsatisfiable') {
    ctx.set('Content-Range', `bytes */${size}`);
    throw new DomainError(
      'invalid',
      'range_not_satisfiable',
      `The range ${rangeHeader} is outside the file's ${size} bytes`,
      [],
      { size },
    );
  }
  ctx.type = answer.contentType;
  if (ask.kind === 'range') {
    const { start, end } = ask.range;
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${start}-${end}/${size}`);
    if (ctx.method !== 'HEAD') ctx.body = await answer.open(ask.range);
    ctx.length = end - start + 1;
    return;
  }
  ctx.status = 200;
  if (ctx.method !== 'HEAD') ctx.body = await answer.open();
  ctx.length = size;
}
