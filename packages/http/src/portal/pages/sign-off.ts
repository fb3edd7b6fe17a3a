import { isDomainError } from '@fundi/domain';
import type { Context } from 'koa';
import { html } from '../../dashboard/html.js';
import { csrfRefused, formBody, newFormToken, sameToken } from '../../dashboard/web.js';
import type { RouteTable } from '../../route-table.js';
import type { PortalHttpDeps } from '../portal-deps.js';
import { portalPage } from '../portal-layout.js';
import { sendPortalPage } from '../portal-sign-in-routes.js';
import { EN } from '../portal-strings.js';
import { PORTAL_FORM_COOKIE, portalCookie, queryText, setPortalCookie } from '../portal-web.js';

const row = (label: string, v: string | number) => html`<tr><th scope="row">${label}</th><td>${v}</td></tr>`;

/**
 * The supervisor's page (docs/api.md, "Logbooks"): no account, the signed link is the credential. It shows exactly
 * every entry that is signed, and posts one answer for all of them with the hash of each as shown, so an entry
 * changed meanwhile is refused.
 */
export function signOffRoutes(router: RouteTable, d: PortalHttpDeps): void {
  const refused = (ctx: Context, e: unknown) => {
    if (!isDomainError(e) || (e.kind !== 'forbidden' && e.kind !== 'invalid' && e.kind !== 'conflict')) throw e;
    sendPortalPage(
      ctx,
      portalPage({ title: EN.signOffTitle, session: null, notice: { text: e.message, error: true }, body: html`` }),
      e.kind === 'forbidden' ? 403 : e.kind === 'invalid' ? 400 : 409,
    );
  };

  router.add('get', '/learn/sign-off', async (ctx) => {
    const token = queryText(ctx, 'token');
    try {
      const r = await d.logbooks.openSignOff.execute(token);
      const csrf = newFormToken();
      setPortalCookie(ctx, PORTAL_FORM_COOKIE, csrf, 3600);
      const hours = r.items.reduce((n, i) => n + i.entry.hours, 0);
      sendPortalPage(
        ctx,
        portalPage({
          title: EN.signOffTitle,
          session: null,
          body: html`<p>${EN.signOffIntro(r.learnerName, r.items.length, hours)}</p>
${r.items.map(({ entry: e, moduleName }) => html`<div class="card signed-entry"><table><tbody>${row(EN.learner, r.learnerName)}${row(EN.module, `${e.moduleCode} ${moduleName}`)}${row(EN.date, e.date)}${row(EN.hours, e.hours)}${row(EN.activity, e.activity)}${row(EN.workplace, e.workplace)}${row(EN.supervisor, e.supervisor.name)}</tbody></table></div>`)}
<form class="card" method="post" action="/learn/sign-off"><input type="hidden" name="_csrf" value="${csrf}">
<input type="hidden" name="token" value="${token}">${r.items.map((i) => html`<input type="hidden" name="hash" value="${i.hash}">`)}
<label for="comment">${EN.comment}</label><textarea id="comment" name="comment" rows="3" maxlength="2000"></textarea>
<button type="submit" name="outcome" value="confirmed">${EN.confirm}</button>
<button type="submit" name="outcome" value="queried">${EN.query}</button></form>`,
        }),
      );
    } catch (e) {
      refused(ctx, e);
    }
  });

  router.add('post', '/learn/sign-off', async (ctx) => {
    const form = await formBody(ctx, d.bodyIdleTimeoutMs);
    if (!sameToken(form.get('_csrf'), portalCookie(ctx, PORTAL_FORM_COOKIE))) throw csrfRefused();
    const outcome = form.get('outcome') === 'queried' ? 'queried' : 'confirmed';
    try {
      await d.logbooks.answerSignOff.execute(form.get('token') ?? '', {
        outcome,
        comment: form.get('comment'),
        hashes: form.getAll('hash'),
        ip: ctx.ip,
      });
    } catch (e) {
      return refused(ctx, e);
    }
    setPortalCookie(ctx, PORTAL_FORM_COOKIE, '', 0);
    sendPortalPage(
      ctx,
      portalPage({
        title: EN.signOffTitle,
        session: null,
        notice: { text: outcome === 'confirmed' ? EN.confirmed : EN.queried },
        body: html``,
      }),
    );
  });
}
