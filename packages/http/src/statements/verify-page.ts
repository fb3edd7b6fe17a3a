import type { PublicStatementView, RateLimitStore, StatementVerification } from '@fundi/application';
import { isDomainError } from '@fundi/domain';
import type { Context, Middleware, Next } from 'koa';
import { html, type Html } from '../dashboard/html.js';
import { securityHeaders } from '../dashboard/web.js';

const PATH = /^\/verify\/([^/]{1,64})\/?$/;
const OUTCOME = { completed: 'Completed', competent: 'Competent', not_yet_competent: 'Not yet competent' } as const;

export interface VerifyPageDeps {
  verification: Pick<StatementVerification, 'check'>;
  rateLimits: RateLimitStore;
  /** Checks per client address per minute. */
  perMinute: number;
  now?: () => number;
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

function statementPage(v: PublicStatementView): string {
  if (v.status === 'revoked')
    return page(
      'Statement of Results: revoked',
      html`<p>This Statement of Results was revoked${v.revokedOn ? html` on ${v.revokedOn}` : ''}. It no longer stands.</p>`,
    );
  return page(
    'Statement of Results: valid',
    html`<dl>
<dt>Learner</dt><dd>${v.holder}</dd>
<dt>Programme</dt><dd>${v.programme}</dd>
<dt>Outcome</dt><dd>${v.outcome ? OUTCOME[v.outcome] : ''}</dd>
<dt>Issued on</dt><dd>${v.issuedOn}</dd>
</dl>
<p>To check a copy of the PDF, send it to <code>POST /api/v1/verify/{code}</code>: the answer says whether it is the
file issued.</p>`,
  );
}

/**
 * The public verification page of a Statement of Results (`/verify/{code}`, the QR code's address): no sign-in,
 * counted per client address, and nothing personal beyond the learner's initials and surname
 * (docs/api.md, "Statements of Results").
 */
export function verifyPage(d: VerifyPageDeps): Middleware {
  const now = d.now ?? Date.now;
  return async (ctx: Context, next: Next) => {
    const m = PATH.exec(ctx.path);
    if (!m || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    securityHeaders(ctx);
    ctx.type = 'text/html; charset=utf-8';
    const [w] = await d.rateLimits.hit(`verify-page:${ctx.ip}`, [{ seconds: 60, limit: d.perMinute }], now());
    if (w && w.hits > d.perMinute) {
      ctx.status = 429;
      ctx.set('Retry-After', String(Math.max(1, w.resetAt - Math.floor(now() / 1000))));
      ctx.body = page('Too many checks', html`<p>Too many checks from this address: try again in a minute.</p>`);
      return;
    }
    try {
      ctx.body = statementPage(await d.verification.check(decoded(m[1]!)));
    } catch (e) {
      if (!isDomainError(e) || e.kind !== 'not_found') throw e;
      ctx.status = 404;
      ctx.body = page('No such statement', html`<p>No Statement of Results has this verification code.</p>`);
    }
  };
}
