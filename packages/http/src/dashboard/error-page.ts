import type { SessionContext } from '@fundi/application/staff';
import { isDomainError } from '@fundi/domain';
import type { Context } from 'koa';
import { UNAVAILABLE_RETRY_AFTER_S, pageStatus } from '../forms/error-table.js';
import { isRequestTimeout } from '../middleware/body-progress.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { html } from './html.js';
import { page } from './layout.js';
import { describe } from '../tenants/api-key-pages.js';

/**
 * A failed page as a page: the status of the error's kind, its message in words (nothing of an unexpected error,
 * which is logged), and a way back.
 */
export function errorPage(ctx: Context, e: unknown, d: DashboardDeps, s: SessionContext | null): void {
  const known = isDomainError(e);
  if (!known) d.logger.error({ requestId: ctx.state.requestId, err: e }, 'dashboard error');
  if (known && e.kind === 'unavailable') {
    d.logger.warn({ requestId: ctx.state.requestId, code: e.code, err: e.cause }, 'storage unavailable');
    ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_S));
  }
  const status = known ? (isRequestTimeout(e) ? 408 : pageStatus(e.kind)) : 500;
  // A stalled form: what the client still sends of it is not waited for.
  if (status === 408) ctx.set('Connection', 'close');
  const text = !known
    ? 'Something went wrong on our side. Try again; if it keeps happening, tell your administrator.'
    : e.kind === 'not_found'
      ? 'This page or record does not exist.'
      : describe(e);
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page({
    title: status === 403 ? 'Not allowed' : status === 404 ? 'Not found' : status === 401 ? 'Signed out' : 'Problem',
    session: s,
    notice: { text, error: true },
    body: s
      ? html`<p><a href="/dashboard">Go to the overview</a></p>`
      : html`<p><a href="/dashboard">Go to the overview</a> · <a href="/dashboard/sign-in">Sign in</a></p>`,
  }).value;
}
