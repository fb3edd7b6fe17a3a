import { isDomainError } from '@fundi/domain';
import { REGULATOR_SETTING_CODES, REGULATOR_SETTING_FIELDS } from '@fundi/domain/exports';
import type { DashboardDeps, PageRoutes, PageSection, SlotOf } from '../dashboard/dashboard-deps.js';
import { html } from '../dashboard/html.js';
import { csrf } from '../dashboard/layout.js';
import { describe } from '../tenants/api-key-pages.js';
import { settingsPage } from '../dashboard/pages/settings.js';
import { field, requireAdmin } from '../dashboard/web.js';

const REGULATOR_LABELS: Record<(typeof REGULATOR_SETTING_FIELDS)[number], string> = {
  sdpCode: 'SDP code (QCTO accreditation number)',
  assessmentPartnerCode: 'Assessment quality partner code',
  assessmentCentreCode: 'Assessment centre code',
  readinessTypeId: 'Learner readiness for EISA type',
  employmentStatusDefault: 'Default employment status',
  achievementTypeId: 'Modular achievement type',
  entryRequirementStatus: 'Entry requirement status',
  flcStatus: 'Foundational learning competence (FLC)',
  statementOfResultsStatus: 'Statement of results status',
};

/** The settings page's regulator codes the QCTO files need (admin only, as in the API); a coded field is a select. */
export const regulatorPanel: PageSection<SlotOf<'settings'>> = {
  order: 20,
  role: 'admin',
  async render(d, s) {
    const values = await d.exports.getSettings.execute(s.actor);
    return html`<form class="card" method="post" action="/dashboard/settings/regulator">${csrf(s)}<h2>Regulator codes</h2>
${REGULATOR_SETTING_FIELDS.map((f) => {
  const codes = REGULATOR_SETTING_CODES[f];
  const v = values[f] ?? '';
  return codes
    ? html`<label for="reg-${f}">${REGULATOR_LABELS[f]}</label><select id="reg-${f}" name="${f}"><option value="">(not set)</option>${codes.map((c) => html`<option value="${c}"${c === v ? ' selected' : ''}>${c}</option>`)}</select>`
    : html`<label for="reg-${f}">${REGULATOR_LABELS[f]}</label><input id="reg-${f}" name="${f}" value="${v}" maxlength="20">`;
})}
<button type="submit">Save regulator codes</button></form>`;
  },
};

/** The post of the regulator panel: the settings page again, with what was saved or why not. */
export function regulatorSettingsPages(r: PageRoutes, d: DashboardDeps): void {
  r.post('/dashboard/settings/regulator', async (_ctx, s, form) => {
    requireAdmin(s);
    const input = Object.fromEntries(REGULATOR_SETTING_FIELDS.map((f) => [f, field(form, f) ?? null]));
    try {
      await d.exports.putSettings.execute(s.actor, input);
    } catch (e) {
      if (isDomainError(e) && e.kind === 'invalid') return settingsPage(d, s, { text: describe(e), error: true });
      throw e;
    }
    return settingsPage(d, s, { text: 'Regulator codes saved.' });
  });
}
