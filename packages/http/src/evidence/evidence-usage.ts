import type { StorageDay } from '@fundi/domain/evidence';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { bytes, html, raw, type Html } from '../dashboard/html.js';
import { page } from '../dashboard/layout.js';
import { requireScope } from '../dashboard/web.js';

const W = 640;
const H = 220;
const PAD = { left: 8, right: 8, top: 10, bottom: 24 };

/**
 * Storage over the last 30 days as an SVG bar chart, drawn on the server (no script, nothing for the CSP to
 * allow), with the 80% and 90% quota lines when the tenant has a quota. The same figures follow as a table.
 */
export function storageChart(days: readonly StorageDay[], quota: number | null): Html {
  const max = Math.max(1, quota ?? 0, ...days.map((d) => d.bytes));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const slot = plotW / Math.max(days.length, 1);
  const bars = days
    .map((d, i) => {
      const top = y(d.bytes);
      return `<rect x="${(PAD.left + i * slot + slot * 0.15).toFixed(1)}" y="${top.toFixed(1)}" width="${(slot * 0.7).toFixed(1)}" height="${(PAD.top + plotH - top).toFixed(1)}" fill="#0b3d6b"><title>${d.day}: ${bytes(d.bytes)}</title></rect>`;
    })
    .join('');
  const line = (pct: number, colour: string) => {
    if (!quota) return '';
    const at = y((quota * pct) / 100).toFixed(1);
    return `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${at}" y2="${at}" stroke="${colour}" stroke-width="2" stroke-dasharray="6 4"/><text x="${W - PAD.right - 4}" y="${(Number(at) - 4).toFixed(1)}" text-anchor="end" font-size="12" fill="${colour}">${pct}% of quota</text>`;
  };
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  const desc = days.length
    ? `Storage used each day from ${first} to ${last}; the last day ${bytes(days.at(-1)!.bytes)}${quota ? ` of ${bytes(quota)}` : ''}.`
    : 'No storage figures recorded yet.';
  return raw(
    `<svg class="chart" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-labelledby="usage-title usage-desc" xmlns="http://www.w3.org/2000/svg">` +
      `<title id="usage-title">Storage used over the last 30 days</title><desc id="usage-desc">${desc.replace(/[<>&"]/g, '')}</desc>` +
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${PAD.top + plotH}" y2="${PAD.top + plotH}" stroke="#666"/>` +
      bars +
      line(80, '#8a5a00') +
      line(90, '#a11') +
      `<text x="${PAD.left}" y="${H - 6}" font-size="12" fill="#333">${first}</text>` +
      `<text x="${W - PAD.right}" y="${H - 6}" font-size="12" text-anchor="end" fill="#333">${last}</text>` +
      '</svg>',
  );
}

/** Usage (docs/dashboard.md, "Pages"): storage now and over 30 days against the quota, and API requests today. */
export function usagePages(r: PageRoutes, d: DashboardDeps): void {
  r.get('/dashboard/usage', async (_ctx, s) => {
    requireScope(s, 'usage:read');
    const now = await d.evidence.usage.usage(s.actor);
    const history = await d.evidence.usage.usageHistory(s.actor, 30);
    return page({
      title: 'Usage',
      current: '/dashboard/usage',
      session: s,
      body: html`<div class="table" tabindex="0"><table><tbody>
<tr><th scope="row">Storage used</th><td>${bytes(now.bytesUsed)}${now.quotaBytes ? ` of ${bytes(now.quotaBytes)} (${now.percentUsed}%)` : ' (no quota)'}</td></tr>
<tr><th scope="row">Files</th><td>${now.files}</td></tr>
<tr><th scope="row">API requests today (all keys)</th><td>${now.requestsToday}</td></tr>
</tbody></table></div>
<h2>Storage over the last 30 days</h2>
${storageChart(history.days, history.quotaBytes)}
<p class="muted">One figure a day (taken just after midnight UTC, and today's when this page is opened). The lines mark 80% and 90% of the quota, when the plan has one.</p>
<div class="table" tabindex="0"><table><caption>Storage used per day</caption><thead><tr><th scope="col">Day</th><th scope="col">Used</th><th scope="col">Files</th></tr></thead><tbody>
${[...history.days].reverse().map((x) => html`<tr><td>${x.day}</td><td>${bytes(x.bytes)}</td><td>${x.files}</td></tr>`)}
</tbody></table></div>`,
    });
  });
}
