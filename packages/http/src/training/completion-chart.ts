import { html, raw, type Html } from '../dashboard/html.js';

export const CHART_STATUSES = ['enrolled', 'in_progress', 'completed', 'withdrawn'] as const;
export type ProgrammeCounts = { code: string; name: string; counts: Record<(typeof CHART_STATUSES)[number], number> };

const LABEL_W = 120;
const BAR_H = 14;
const W = 640;
/** Each status keeps its own shade and its own label and figure, so the chart reads without colour. */
const SHADES = { enrolled: '#7aa7d6', in_progress: '#0b4f8a', completed: '#1f7a3a', withdrawn: '#8a8f98' } as const;
const esc = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Completion per programme as an SVG drawn on the server (nothing for the CSP to allow): per programme one bar per
 * status, each labelled with the status and its count, with a title and a description for screen readers. The same
 * figures follow as a table.
 */
export function completionChart(rows: readonly ProgrammeCounts[]): Html {
  const max = Math.max(1, ...rows.flatMap((r) => CHART_STATUSES.map((s) => r.counts[s])));
  const block = CHART_STATUSES.length * (BAR_H + 4) + 22;
  const height = Math.max(40, rows.length * block);
  const plot = W - LABEL_W - 60;
  const parts = rows.map((r, i) => {
    const top = i * block;
    const bars = CHART_STATUSES.map((s, j) => {
      const y = top + 20 + j * (BAR_H + 4);
      const w = Math.max(1, (r.counts[s] / max) * plot);
      return `<text x="${LABEL_W - 6}" y="${y + BAR_H - 3}" font-size="12" text-anchor="end" fill="#1a1a1a">${s.replace('_', ' ')}</text><rect x="${LABEL_W}" y="${y}" width="${w.toFixed(1)}" height="${BAR_H}" fill="${SHADES[s]}"/><text x="${(LABEL_W + w + 4).toFixed(1)}" y="${y + BAR_H - 3}" font-size="12" fill="#1a1a1a">${r.counts[s]}</text>`;
    }).join('');
    return `<text x="0" y="${top + 14}" font-size="13" font-weight="bold" fill="#1a1a1a">${esc(`${r.name} (${r.code})`)}</text>${bars}`;
  });
  const desc = rows.length
    ? rows
        .map((r) => `${r.code}: ${CHART_STATUSES.map((s) => `${r.counts[s]} ${s.replace('_', ' ')}`).join(', ')}`)
        .join('; ')
    : 'No programmes yet.';
  return html`${raw(
    `<svg class="chart" viewBox="0 0 ${W} ${height}" width="100%" role="img" aria-labelledby="completion-title completion-desc" xmlns="http://www.w3.org/2000/svg"><title id="completion-title">Enrolments per programme by status</title><desc id="completion-desc">${esc(desc)}</desc>${parts.join('')}</svg>`,
  )}
<div class="table" tabindex="0"><table><caption>Enrolments per programme</caption><thead><tr><th scope="col">Programme</th>${CHART_STATUSES.map((s) => html`<th scope="col">${s.replace('_', ' ')}</th>`)}</tr></thead><tbody>
${rows.map((r) => html`<tr><td><a href="/dashboard/enrolments?programme=${encodeURIComponent(r.code)}">${r.name}</a></td>${CHART_STATUSES.map((s) => html`<td>${r.counts[s]}</td>`)}</tr>`)}
</tbody></table></div>`;
}
