import type { RateLimitStore } from '@fundi/application';
import {
  VERIFY_MAX_BYTES,
  type PublicStatementView,
  type VerifyStatement,
  type VerifyStatementFile,
} from '@fundi/application/statements';
import { isDomainError } from '@fundi/domain';
import type { Context, Middleware, Next } from 'koa';
import { html, type Html } from '../dashboard/html.js';
import { securityHeaders } from '../dashboard/web.js';
import { DEFAULT_BODY_IDLE_TIMEOUT_MS, isRequestTimeout } from '../middleware/body-progress.js';
import { multipartUpload } from '../middleware/multipart-upload.js';
import { payloadTooLarge } from '../middleware/upload.js';

const PATH = /^\/verify\/([^/]{1,64})\/?$/;
const OUTCOME = { completed: 'Completed', competent: 'Competent', not_yet_competent: 'Not yet competent' } as const;
/** Room for a multipart body's boundaries and part headers around the file. */
const MULTIPART_OVERHEAD = 16 * 1024;

export interface VerifyPageDeps {
  verification: { verifyStatement: VerifyStatement; verifyStatementFile: VerifyStatementFile };
  rateLimits: RateLimitStore;
  /** Checks per client address per minute (views and file checks together). */
  perMinute: number;
  now?: () => number;
  /** A file check whose body sends nothing for this long is answered 408 (default 60 s). */
  bodyIdleTimeoutMs?: number;
}

/** A path segment as typed; one that does not decode is no code at all. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

function page(title: string, body: Html): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="stylesheet" href="/dashboard/assets/app.css"></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`.value;
}

/** The form that checks a copy of the PDF (a plain post: it works without script; nothing is kept). */
function fileForm(code: string): Html {
  return html`<form class="card" method="post" action="/verify/${encodeURIComponent(code)}" enctype="multipart/form-data">
<h2>Check a copy of the PDF</h2>
<p>Choose the PDF you were given: its SHA-256 fingerprint is compared with that of the statement issued. The file is
read only to compute the fingerprint and is not kept.</p>
<label for="file">The PDF (at most ${VERIFY_MAX_BYTES / 1024 / 1024} MB)</label>
<input id="file" name="file" type="file" accept="application/pdf,.pdf" required>
<button type="submit">Check the file</button></form>
<p>The same check for programs: <code>POST /api/v1/verify/{code}</code> with the file as the body.</p>`;
}

function facts(v: PublicStatementView): Html {
  return html`<dl>
<dt>Learner</dt><dd>${v.holder}</dd>
<dt>Programme</dt><dd>${v.programme}</dd>
<dt>Outcome</dt><dd>${v.outcome ? OUTCOME[v.outcome] : ''}</dd>
<dt>Issued on</dt><dd>${v.issuedOn}</dd>
</dl>`;
}

function revokedText(v: PublicStatementView): Html {
  return html`<p>This Statement of Results was revoked${v.revokedOn ? html` on ${v.revokedOn}` : ''}. It no longer stands.</p>`;
}

function statementPage(v: PublicStatementView, code: string): string {
  if (v.status === 'revoked') return page('Statement of Results: revoked', html`${revokedText(v)}${fileForm(code)}`);
  return page('Statement of Results: valid', html`${facts(v)}${fileForm(code)}`);
}

/** The answer to a file check: whether the file is, byte for byte, the PDF issued under the code. */
function fileCheckPage(v: PublicStatementView & { matches: boolean }, code: string): string {
  const verdict = v.matches
    ? html`<p class="notice"><strong>This file is the Statement of Results issued under this code.</strong></p>`
    : html`<p class="notice error"><strong>This file is not the one issued under this code</strong>: it was changed, or it is another document.</p>`;
  return page(
    v.matches ? 'The file matches' : 'The file does not match',
    html`${verdict}${v.status === 'revoked' ? revokedText(v) : facts(v)}${fileForm(code)}`,
  );
}

/**
 * The public verification page of a Statement of Results (`/verify/{code}`, the QR code's address): no sign-in,
 * counted per client address, and nothing personal beyond the learner's initials and surname
 * (docs/api.md, "Statements of Results").
 */
export function verifyPage(d: VerifyPageDeps): Middleware {
  const now = d.now ?? Date.now;
  const idleMs = d.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS;
  // Another path passes straight on, with no promise of this step's own (this step sits before the API's on every
  // request).
  return (ctx: Context, next: Next): Promise<unknown> => {
    const m = PATH.exec(ctx.path);
    const method = ctx.method;
    if (!m || (method !== 'GET' && method !== 'HEAD' && method !== 'POST')) return next();
    return serve(ctx, m[1]!, method === 'POST');
  };
  async function serve(ctx: Context, sent: string, post: boolean): Promise<void> {
    securityHeaders(ctx);
    ctx.type = 'text/html; charset=utf-8';
    const [w] = await d.rateLimits.hit(`verify-page:${ctx.ip}`, [{ seconds: 60, limit: d.perMinute }], now());
    if (w && w.hits > d.perMinute) {
      if (post) ctx.req.resume();
      ctx.status = 429;
      ctx.set('Retry-After', String(Math.max(1, w.resetAt - Math.floor(now() / 1000))));
      ctx.body = page('Too many checks', html`<p>Too many checks from this address: try again in a minute.</p>`);
      return;
    }
    const code = decoded(sent);
    try {
      const v = await d.verification.verifyStatement.execute(code);
      ctx.body = post ? await checkFile(ctx, d, code, idleMs) : statementPage(v, code);
    } catch (e) {
      if (post) ctx.req.resume();
      if (!isDomainError(e)) throw e;
      if (e.kind === 'not_found') {
        ctx.status = 404;
        ctx.body = page('No such statement', html`<p>No Statement of Results has this verification code.</p>`);
      } else if (post && isRequestTimeout(e)) {
        ctx.status = 408;
        ctx.set('Connection', 'close');
        ctx.body = page('The upload stopped', html`<p>The file stopped arriving: send the form again.</p>`);
      } else if (post && e.kind === 'invalid') {
        const tooLarge = e.code === 'payload_too_large';
        ctx.status = tooLarge ? 413 : 400;
        // The rest of a file over the limit is not waited for: the connection closes after this answer.
        if (tooLarge) ctx.set('Connection', 'close');
        ctx.body = page(
          tooLarge ? 'The file is too large' : 'No file to check',
          html`<p class="notice error">${
            tooLarge
              ? `A Statement of Results is a few kilobytes; this file is over ${VERIFY_MAX_BYTES / 1024 / 1024} MB, so it is not one.`
              : 'Choose the PDF to check, then send the form again.'
          }</p>${fileForm(code)}`,
        );
      } else throw e;
    }
  }
}

/**
 * `POST /verify/{code}` from the page's form: the file part is hashed as it arrives (never stored) and compared with
 * the statement's SHA-256. A body declared larger than the limit is refused before a byte is read.
 */
async function checkFile(ctx: Context, d: VerifyPageDeps, code: string, idleMs: number): Promise<string> {
  const declared = Number(ctx.get('content-length') || '0');
  if (declared > VERIFY_MAX_BYTES + MULTIPART_OVERHEAD) throw payloadTooLarge(VERIFY_MAX_BYTES);
  const body = await multipartUpload(ctx, { kind: 'multipart', field: 'file', maxBytes: VERIFY_MAX_BYTES }, idleMs);
  const result = await d.verification.verifyStatementFile.execute(code, body.file.stream);
  await body.later;
  return fileCheckPage(result, code);
}
