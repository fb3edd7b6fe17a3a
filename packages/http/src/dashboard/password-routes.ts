import { DomainError, isDomainError } from '@fundi/domain';
import type { RouteTable } from '../route-table.js';
import type { DashboardDeps } from './dashboard-deps.js';
import { describe } from '../tenants/api-key-pages.js';
import { forgotPasswordPage, setPasswordPage, signInPage } from './pages/sign-in.js';
import { send } from './send-answer.js';
import type { OverLimit } from './sign-in-attempts.js';
import { FORM_COOKIE, cookie, csrfRefused, formBody, sameToken } from './web.js';

/**
 * A forgotten password (a link by mail, counted with the sign-in attempts) and setting a password from such a link
 * or an invitation.
 */
export function passwordRoutes(router: RouteTable, d: DashboardDeps, idleMs: number, overLimit: OverLimit): void {
  router.add('get', '/dashboard/forgot-password', async (ctx) => {
    const tenant = typeof ctx.query.tenant === 'string' ? ctx.query.tenant : undefined;
    send(ctx, forgotPasswordPage(ctx, { tenant }));
  });

  router.add('post', '/dashboard/forgot-password', async (ctx) => {
    const form = await formBody(ctx, idleMs);
    if (!sameToken(form.get('_csrf'), cookie(ctx, FORM_COOKIE))) throw csrfRefused();
    const tenant = (form.get('tenant') ?? '').trim().toLowerCase();
    const email = (form.get('email') ?? '').trim().toLowerCase();
    // Counted with the sign-in attempts per address, and at most 3 per account, so the form cannot flood a mailbox.
    if (await overLimit(ctx.ip, `reset:account:${tenant}/${email}`, 3, d.now().getTime())) {
      send(ctx, forgotPasswordPage(ctx, { tenant, error: 'Too many requests: wait a few minutes and try again.' }));
      ctx.status = 429;
      return;
    }
    if (tenant && email) await d.requestPasswordReset(tenant, email);
    send(
      ctx,
      signInPage(ctx, {
        tenant,
        notice: 'If that account exists, we have emailed it a link to choose a new password. It works for one hour.',
      }),
    );
  });

  router.add('get', '/dashboard/set-password', async (ctx) => {
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    const user = token ? await d.staff.peekSetPassword.execute(token) : null;
    if (!user) throw DomainError.forbidden('The link is not valid or has expired: ask an administrator for a new one');
    send(ctx, setPasswordPage(ctx, { token, email: user.email }));
  });

  router.add('post', '/dashboard/set-password', async (ctx) => {
    const form = await formBody(ctx, idleMs);
    if (!sameToken(form.get('_csrf'), cookie(ctx, FORM_COOKIE))) throw csrfRefused();
    const token = form.get('token') ?? '';
    try {
      await d.staff.setPassword.execute(token, form.get('password') ?? '');
    } catch (e) {
      const user = await d.staff.peekSetPassword.execute(token);
      if (isDomainError(e) && e.kind === 'invalid' && user) {
        send(ctx, setPasswordPage(ctx, { token, email: user.email, error: describe(e) }));
        ctx.status = 400;
        return;
      }
      throw e;
    }
    send(ctx, signInPage(ctx, { notice: 'Your password is set: sign in.' }));
  });
}
