import type { PortalSessionContext } from '@fundi/application/portal';
import { isDomainError } from '@fundi/domain';
import { html } from '../../dashboard/html.js';
import { portalCsrf, portalPage } from '../portal-layout.js';
import type { PortalHttpDeps, PortalRoutes } from '../portal-deps.js';
import { EN } from '../portal-strings.js';

const text = (form: URLSearchParams, name: string) => (form.get(name) ?? '').trim();
const orNull = (v: string) => (v === '' ? null : v);

function detailsPage(s: PortalSessionContext, notice: { text: string; error?: boolean } | null) {
  const l = s.learner;
  const a = l.homeAddress;
  const line = (n: 1 | 2 | 3) => a?.[`line${n}`] ?? '';
  return portalPage({
    title: EN.details,
    session: s,
    notice,
    body: html`<form class="card" method="post" action="/learn/details">${portalCsrf(s)}
<label for="email">${EN.email}</label><input id="email" name="email" type="email" autocomplete="email" value="${l.email ?? ''}">
<label for="mobile">${EN.mobile}</label><input id="mobile" name="mobile" type="tel" autocomplete="tel" value="${l.mobile ?? ''}">
${([1, 2, 3] as const).map((n) => html`<label for="line${n}">${EN.addressLine(n)}</label><input id="line${n}" name="line${n}" autocomplete="address-line${n}" value="${line(n)}">`)}
<label for="postalCode">${EN.postalCode}</label><input id="postalCode" name="postalCode" autocomplete="postal-code" value="${a?.postalCode ?? ''}">
<p><label><input type="checkbox" name="whatsappConsent" value="1"${l.whatsappConsent ? html` checked` : ''}> ${EN.whatsappConsent}</label></p>
<p><label><input type="checkbox" name="emailOptOut" value="1"${l.emailOptOut ? html` checked` : ''}> ${EN.emailOptOut}</label></p>
<button type="submit">${EN.save}</button></form>
<p><a href="/learn">${EN.back}</a></p>`,
  });
}

/**
 * The learner's own contact details and consents, changed through the API's update (`learner.updated`), audited
 * under the learner's own id. Only these fields: nothing else of the record can be changed here.
 */
export function detailsPages(r: PortalRoutes, d: PortalHttpDeps): void {
  r.get('/learn/details', async (ctx, s) => detailsPage(s, ctx.query.saved === '1' ? { text: EN.saved } : null));

  r.post('/learn/details', async (ctx, s, form) => {
    const address = ['line1', 'line2', 'line3', 'postalCode'].map((k) => text(form, k));
    try {
      await d.learners.updateLearner.execute(s.actor, s.learner.id, {
        email: orNull(text(form, 'email')),
        mobile: orNull(text(form, 'mobile')),
        homeAddress: address.every((v) => v === '')
          ? null
          : {
              line1: orNull(address[0]!),
              line2: orNull(address[1]!),
              line3: orNull(address[2]!),
              postalCode: orNull(address[3]!),
            },
        whatsappConsent: form.get('whatsappConsent') === '1',
        emailOptOut: form.get('emailOptOut') === '1',
      });
    } catch (e) {
      if (!isDomainError(e) || (e.kind !== 'invalid' && e.kind !== 'conflict')) throw e;
      ctx.status = e.kind === 'invalid' ? 400 : 409;
      const why = e.details.length ? e.details.map((x) => `${x.field}: ${x.message}`).join('; ') : e.message;
      return detailsPage(s, { text: why, error: true });
    }
    return { redirect: '/learn/details?saved=1' };
  });
}
