import { html, type Html } from '../dashboard/html.js';

/** What the import page says while the worker runs: rows done of the total, and what comes next. */
export function importProgress(i: {
  status: string;
  progress: { processed: number; total: number };
  dryRun?: boolean;
}): Html {
  const { processed, total } = i.progress;
  // While the file is being checked its length is not known yet: the bar is indeterminate, the count still moves.
  const known = total > 0;
  const pct = known ? Math.min(100, Math.floor((processed * 100) / total)) : 0;
  const done = known ? `${processed} of ${total} rows (${pct}%)` : `${processed} rows read so far`;
  const next =
    i.status === 'validating'
      ? i.dryRun === false
        ? 'Next: rows without errors are written straight away.'
        : 'Next: the report of errors, then you confirm the import.'
      : 'Next: the learners and records appear in their lists; this page refreshes itself every 2 seconds.';
  return html`<div class="card"><label for="imp-progress">${i.status === 'validating' ? 'Checking' : 'Writing'}</label>
${known ? html`<progress id="imp-progress" max="${total}" value="${processed}"></progress>` : html`<progress id="imp-progress"></progress>`}
<p role="status">${done}.</p><p class="muted">${next}</p></div>`;
}
