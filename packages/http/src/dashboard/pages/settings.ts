import type { SessionContext } from '@fundi/application/staff';
import { Tenant, isDomainError } from '@fundi/domain';
import type { DashboardDeps, PageRoutes } from '../dashboard-deps.js';
import { html, when, type Html } from '../html.js';
import { csrf, page } from '../layout.js';
import { sectionsIn } from '../page-sections.js';
import { field, requireAdmin, zoneOf } from '../web.js';
import { describe } from '../../tenants/api-key-pages.js';

export type { SettingsAt } from './settings-slots.js';

/** The zones offered as suggestions: those of Africa first, then UTC and the rest the runtime knows. */
const ZONES = [
  ...Intl.supportedValuesOf('timeZone').filter((z) => z.startsWith('Africa/')),
  'UTC',
  ...Intl.supportedValuesOf('timeZone').filter((z) => !z.startsWith('Africa/')),
];

/**
 * Settings: the organisation, its plan and limits (read-only: plans are set by the operator), its time zone, then
 * the capabilities' panels (docs/dashboard.md, "Shared pages"), which administrators may change. A panel's post
 * answers with this page and its notice.
 */
export async function settingsPage(
  d: DashboardDeps,
  s: SessionContext,
  notice?: { text: string; error?: boolean },
): Promise<Html> {
  const at = { limits: Tenant.limits(s.tenant) };
  const [rows, panels] = await Promise.all([sectionsIn(d, s, 'settingsLimits', at), sectionsIn(d, s, 'settings', at)]);
  const admin = s.user.role === 'admin';
  const row = (label: string, v: string | number) => html`<tr><th scope="row">${label}</th><td>${v}</td></tr>`;
  return page({
    title: 'Settings',
    current: '/dashboard/settings',
    session: s,
    notice,
    body: html`<h2>Organisation</h2><div class="table" tabindex="0"><table><tbody>
${row('Name', s.tenant.name)}${row('Identifier (slug)', s.tenant.slug)}${row('Plan', s.tenant.plan)}
</tbody></table></div>
<h2>Plan and limits</h2><div class="table" tabindex="0"><table><tbody>
${row('Requests per minute (per API key)', at.limits.perMinute)}
${row('Requests per day (per API key)', at.limits.perDay ?? 'no cap')}
${rows.flatMap((r) => r ?? []).map((r) => html`${row(r.label, r.value)}\n`)}</tbody></table></div>
<h2>Time zone</h2>
<p>Times are shown in <strong>${zoneOf(s)}</strong> (they are stored in UTC).</p>
${when(
  admin,
  () => html`<form class="card" method="post" action="/dashboard/settings/time-zone">${csrf(s)}
<label for="time-zone">Time zone (IANA name, such as Africa/Johannesburg)</label><input id="time-zone" name="timeZone" value="${zoneOf(s)}" list="time-zones" required maxlength="64" autocomplete="off">
<datalist id="time-zones">${ZONES.map((z) => html`<option value="${z}"></option>`)}</datalist>
<button type="submit">Save time zone</button></form>`,
)}${panels.map((p) => html`\n${p}`)}`,
  });
}

export function settingsPages(r: PageRoutes, d: DashboardDeps): void {
  r.get('/dashboard/settings', async (_ctx, s) => settingsPage(d, s));

  r.post('/dashboard/settings/time-zone', async (_ctx, s, form) => {
    requireAdmin(s);
    try {
      await d.tenants.setTimeZone.execute(s.actor, field(form, 'timeZone'));
    } catch (e) {
      if (isDomainError(e) && e.kind === 'invalid') return settingsPage(d, s, { text: describe(e), error: true });
      throw e;
    }
    return { redirect: '/dashboard/settings' };
  });
}
