import type { AuditView } from '@fundi/application/audit';
import { dateTime, html, type Html } from '../dashboard/html.js';

// The page is the learner's (or names them): their internal id is never shown to a person (docs/dashboard.md).
const LEARNER_ID = /lrn_[0-9a-z]+/g;
const value = (v: unknown) =>
  (v === null || v === undefined ? '-' : typeof v === 'string' ? v : JSON.stringify(v)).replace(
    LEARNER_ID,
    'the learner',
  );

/**
 * Audit entries as a table: when (in the tenant's time zone `zone`), who, from where, what, and the values changed
 * (docs/dashboard.md, "History").
 */
export function historyTable(entries: readonly AuditView[], zone: string): Html {
  if (entries.length === 0) return html`<p class="muted">Nothing recorded.</p>`;
  return html`<div class="table" tabindex="0"><table><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">From</th><th scope="col">What</th><th scope="col">On</th><th scope="col">Changes</th></tr></thead><tbody>
${entries.map(
  (e) =>
    html`<tr><td>${dateTime(e.at, zone)}</td><td>${e.actor.name ?? e.actor.id}</td><td>${e.origin.via}${e.origin.ip ? html` <span class="muted">${e.origin.ip}</span>` : ''}</td><td>${e.action}</td><td>${e.entityType}${e.entityType === 'learner' ? '' : html` <span class="muted">${e.entityId}</span>`}</td><td>${Object.entries(
      e.changes,
    ).map(([f, c]) => html`<div>${f}: ${value(c.from)} → ${value(c.to)}</div>`)}</td></tr>`,
)}
</tbody></table></div>`;
}
