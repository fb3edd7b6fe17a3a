import type { SessionContext } from '@fundi/application/staff';
import { Tenant, isDomainError } from '@fundi/domain';
import { REGULATOR_SETTING_CODES, REGULATOR_SETTING_FIELDS, type RegulatorSettings } from '@fundi/domain/exports';
import type { DashboardDeps, PageRoutes } from '../dashboard-deps.js';
import { bytes, html, when, type Html } from '../html.js';
import { csrf, page } from '../layout.js';
import { field, requireAdmin, zoneOf } from '../web.js';
import { describe } from './api-keys.js';

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

/** The regulator codes the QCTO files need (admin only, as in the API); a coded field is a select. */
function regulatorForm(csrfField: Html, values: RegulatorSettings): Html {
  return html`<form class="card" method="post" action="/dashboard/settings/regulator">${csrfField}<h2>Regulator codes</h2>
${REGULATOR_SETTING_FIELDS.map((f) => {
  const codes = REGULATOR_SETTING_CODES[f];
  const v = values[f] ?? '';
  return codes
    ? html`<label for="reg-${f}">${REGULATOR_LABELS[f]}</label><select id="reg-${f}" name="${f}"><option value="">(not set)</option>${codes.map((c) => html`<option value="${c}"${c === v ? ' selected' : ''}>${c}</option>`)}</select>`
    : html`<label for="reg-${f}">${REGULATOR_LABELS[f]}</label><input id="reg-${f}" name="${f}" value="${v}" maxlength="20">`;
})}
<button type="submit">Save regulator codes</button></form>`;
}

/** The zones offered as suggestions: those of Africa first, then UTC and the rest the runtime knows. */
const ZONES = [
  ...Intl.supportedValuesOf('timeZone').filter((z) => z.startsWith('Africa/')),
  'UTC',
  ...Intl.supportedValuesOf('timeZone').filter((z) => !z.startsWith('Africa/')),
];
/**
 * Settings: the organisation, its plan and limits (read-only: plans are set by the operator), evidence retention
 * and the regulator codes, which administrators may change.
 */
export function settingsPages(r: PageRoutes, d: DashboardDeps): void {
  const render = async (s: SessionContext, notice?: { text: string; error?: boolean }) => {
    const limits = Tenant.limits(s.tenant);
    const years = await d.evidence.retentionYears.execute(s.tenant.id);
    const admin = s.user.role === 'admin';
    const regulator = admin ? await d.exports.getSettings.execute(s.actor) : null;
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
${row('Requests per minute (per API key)', limits.perMinute)}
${row('Requests per day (per API key)', limits.perDay ?? 'no cap')}
${row('Evidence storage', bytes(limits.storageBytes))}
</tbody></table></div>
<h2>Time zone</h2>
<p>Times are shown in <strong>${zoneOf(s)}</strong> (they are stored in UTC).</p>
${when(
  admin,
  () => html`<form class="card" method="post" action="/dashboard/settings/time-zone">${csrf(s)}
<label for="time-zone">Time zone (IANA name, such as Africa/Johannesburg)</label><input id="time-zone" name="timeZone" value="${zoneOf(s)}" list="time-zones" required maxlength="64" autocomplete="off">
<datalist id="time-zones">${ZONES.map((z) => html`<option value="${z}"></option>`)}</datalist>
<button type="submit">Save time zone</button></form>`,
)}
<h2>Retention</h2>
<p>Evidence is kept ${years} years after the enrolment is completed, then purged.</p>
${when(
  admin,
  () => html`<form class="card" method="post" action="/dashboard/settings/retention">${csrf(s)}
<label for="years">Years to keep evidence after completion (1-50)</label><input id="years" name="years" type="number" min="1" max="50" value="${years}" required>
<button type="submit">Save retention</button></form>`,
)}
${when(regulator, () => regulatorForm(csrf(s), regulator!))}`,
    });
  };

  r.get('/dashboard/settings', async (_ctx, s) => render(s));
  r.post('/dashboard/settings/regulator', async (_ctx, s, form) => {
    requireAdmin(s);
    const input = Object.fromEntries(REGULATOR_SETTING_FIELDS.map((f) => [f, field(form, f) ?? null]));
    try {
      await d.exports.putSettings.execute(s.actor, input);
    } catch (e) {
      if (isDomainError(e) && e.kind === 'invalid') return render(s, { text: describe(e), error: true });
      throw e;
    }
    return render(s, { text: 'Regulator codes saved.' });
  });

  r.post('/dashboard/settings/time-zone', async (_ctx, s, form) => {
    requireAdmin(s);
    try {
      await d.tenants.setTimeZone.execute(s.actor, field(form, 'timeZone'));
    } catch (e) {
      if (isDomainError(e) && e.kind === 'invalid') return render(s, { text: describe(e), error: true });
      throw e;
    }
    return { redirect: '/dashboard/settings' };
  });

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
      if (isDomainError(e) && e.kind === 'invalid') return render(s, { text: describe(e), error: true });
      throw e;
    }
    return render(s, { text: `Evidence retention set to ${years} years.` });
  });
}
