import { isDomainError } from '@fundi/domain';
import type { DashboardDeps, PageRoutes, PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { bytes, html, when } from '../dashboard/html.js';
import { csrf } from '../dashboard/layout.js';
import { describe } from '../tenants/api-key-pages.js';
import { settingsPage } from '../dashboard/pages/settings.js';
import { requireAdmin } from '../dashboard/web.js';

/** The settings page's limits: the tenant's evidence storage. */
export const evidenceStorageLimit: PageSection<SlotOf<'settingsLimits'>> = {
  order: 10,
  async render(_d, _s, at) {
    return [{ label: 'Evidence storage', value: bytes(at.limits.storageBytes) }];
  },
};

/** The settings page's evidence retention, which administrators may change. */
export const evidenceRetention: PageSection<SlotOf<'settings'>> = {
  order: 10,
  async render(d, s) {
    const years = await d.evidence.retentionYears.execute(s.tenant.id);
    return html`<h2>Retention</h2>
<p>Evidence is kept ${years} years after the enrolment is completed, then purged.</p>
${when(
  s.user.role === 'admin',
  () => html`<form class="card" method="post" action="/dashboard/settings/retention">${csrf(s)}
<label for="years">Years to keep evidence after completion (1-50)</label><input id="years" name="years" type="number" min="1" max="50" value="${years}" required>
<button type="submit">Save retention</button></form>`,
)}`;
  },
};

/** The post of the retention panel: the settings page again, with what was set or why not. */
export function evidenceSettingsPages(r: PageRoutes, d: DashboardDeps): void {
  r.post('/dashboard/settings/retention', async (_ctx, s, form) => {
    requireAdmin(s);
    const years = Number(form.get('years'));
    try {
      await d.evidence.setRetentionYears.execute(
        s.tenant.slug,
        Number.isFinite(years) ? years : form.get('years'),
        s.actor,
      );
    } catch (e) {
      if (isDomainError(e) && e.kind === 'invalid') return settingsPage(d, s, { text: describe(e), error: true });
      throw e;
    }
    return settingsPage(d, s, { text: `Evidence retention set to ${years} years.` });
  });
}
