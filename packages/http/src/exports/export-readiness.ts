import { Readable } from 'node:stream';
import type { LearnerName } from '@fundi/application/learners';
import type { SessionContext } from '@fundi/application/staff';
import { BOM, csvLine } from '@fundi/application';
import type { ReadinessFinding } from '@fundi/domain/exports';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { html, when, type Html } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { requireScope } from '../dashboard/web.js';
import { FIELD_LABELS, controlId } from '../learners/learner-form.js';
import { namesFor, person } from '../dashboard/forms/person.js';

type FileType = 'qcto01' | 'qcto02';
const TITLES: Record<FileType, string> = { qcto01: 'QCTO01 learner information', qcto02: 'QCTO02 module achievements' };
const typeOf = (v: unknown): FileType => (v === 'qcto02' ? 'qcto02' : 'qcto01');

/** A finding's field as the learner form labels it; a provider setting by its own name. */
const RECORD_LABELS: Record<string, string> = {
  'enrolment.expectedEndDate': 'Enrolment expected end date',
  'programme.qualificationId': 'Programme SAQA qualification id',
};

export function fieldLabel(field: string): string {
  if (field.startsWith('settings.')) return `Provider setting ${field.slice('settings.'.length)}`;
  if (RECORD_LABELS[field]) return RECORD_LABELS[field];
  return FIELD_LABELS[field] ?? field;
}

/** Where a finding is fixed: the learner form's field, or the settings page for a provider setting. */
function fixLink(f: ReadinessFinding): string {
  if (f.field.startsWith('settings.')) return '/dashboard/settings';
  const known = FIELD_LABELS[f.field] !== undefined;
  return `/dashboard/learners/${f.learnerId}/edit${known ? `#${controlId(f.field)}` : ''}`;
}

function groups(findings: readonly ReadinessFinding[]): Map<string, ReadinessFinding[]> {
  const by = new Map<string, ReadinessFinding[]>();
  for (const f of findings) {
    const list = by.get(f.field);
    if (list) list.push(f);
    else by.set(f.field, [f]);
  }
  return by;
}

/** The learners listed per field: on the whole report, and for one field (the CSV has every finding). */
const LISTED = 50;
const LISTED_ONE = 200;

function group(
  type: FileType,
  field: string,
  learners: number,
  list: ReadinessFinding[],
  names: Map<string, LearnerName>,
  open: boolean,
): Html {
  const shown = list.slice(0, open ? LISTED_ONE : LISTED);
  return html`<details class="card"${open ? html` open` : ''}><summary><strong>${fieldLabel(field)}</strong>: ${learners} learner${learners === 1 ? '' : 's'}</summary>
<div class="table" tabindex="0"><table><thead><tr><th scope="col">Learner</th><th scope="col">Problem</th><th scope="col"><span class="sr">Fix</span></th></tr></thead><tbody>
${shown.map((f) => html`<tr><td>${person(names, f.learnerId)}</td><td>${f.message}</td><td><a href="${fixLink(f)}">Fix<span class="sr"> ${fieldLabel(field)}</span></a></td></tr>`)}
</tbody></table></div>${when(
    learners > shown.length,
    () =>
      html`<p class="muted">${shown.length} of ${learners} listed${open ? '' : html`: <a href="/dashboard/readiness?type=${type}&amp;field=${encodeURIComponent(field)}">only this field</a>`}; the CSV lists every finding.</p>`,
  )}</details>`;
}

/**
 * The QCTO readiness report as a page of its own (docs/dashboard.md): a GET, so a refresh shows it again; findings
 * grouped by field with counts, each learner linked to the form field that fixes it, and the report as CSV.
 */
export function readinessPages(r: PageRoutes, d: DashboardDeps): void {
  const report = async (s: SessionContext, type: FileType) => {
    requireScope(s, 'exports:write');
    const answer = await d.exports.requestRegulator.execute(s.actor, type, { dryRun: true });
    if (!answer.dryRun) throw new Error('a dry run answers a report');
    return answer.report;
  };

  r.get('/dashboard/readiness', async (ctx, s) => {
    const type = typeOf(ctx.query.type);
    requireScope(s, 'exports:write');
    const { report: rep, byField } = await d.exports.requestRegulator.current(s.actor, type);
    const only = typeof ctx.query.field === 'string' ? ctx.query.field : null;
    const byFieldOf = groups(rep.findings);
    const shownFields = byField.filter((f) => only === null || f.field === only);
    const shown = shownFields.flatMap((f) => (byFieldOf.get(f.field) ?? []).slice(0, only ? LISTED_ONE : LISTED));
    const names = await namesFor(
      d,
      s,
      shown.map((f) => f.learnerId),
    );
    return page({
      title: `${TITLES[type]}: readiness`,
      current: '/dashboard/exports',
      session: s,
      body: html`<nav aria-label="Files" class="inline"><a href="/dashboard/readiness?type=qcto01"${type === 'qcto01' ? html` aria-current="page"` : ''}>QCTO01</a> <a href="/dashboard/readiness?type=qcto02"${type === 'qcto02' ? html` aria-current="page"` : ''}>QCTO02</a></nav>
<div class="card" role="status"><h2>${type.toUpperCase()}: readiness</h2><p>${rep.ready} learner${rep.ready === 1 ? '' : 's'} ready, ${rep.leftOut} left out, ${rep.records} record${rep.records === 1 ? '' : 's'}.</p>
<p><a href="/dashboard/readiness.csv?type=${type}">Download the report as CSV</a></p>
<form method="post" action="/dashboard/exports">${csrf(s)}<input type="hidden" name="type" value="${type}"><button type="submit">Create the ${type.toUpperCase()} file now</button></form></div>
${when(
  only !== null,
  () =>
    html`<p>Learners missing ${fieldLabel(only ?? '')}${shownFields.length ? '' : ': none'}. <a href="/dashboard/readiness?type=${type}">Every field</a></p>`,
)}
${when(shownFields.length > 0, () => html`<h2>Findings by field</h2>${shownFields.map((f) => group(type, f.field, f.learners, byFieldOf.get(f.field) ?? [], names, only !== null))}`)}
${when(rep.omittedFindings > 0, () => html`<p class="muted">${rep.omittedFindings} more findings are not listed.</p>`)}`,
    });
  });

  r.get('/dashboard/readiness.csv', async (ctx, s) => {
    const type = typeOf(ctx.query.type);
    const rep = await report(s, type);
    const names = await namesFor(
      d,
      s,
      rep.findings.map((f) => f.learnerId),
    );
    const lines = [
      BOM + csvLine(['learner', 'id_number', 'field', 'field_label', 'reason', 'problem']),
      ...rep.findings.map((f) =>
        csvLine([
          names.get(f.learnerId)?.name ?? '',
          f.idNumber ?? f.alternateId,
          f.field,
          fieldLabel(f.field),
          f.reason,
          f.message,
        ]),
      ),
    ];
    return {
      file: {
        contentType: 'text/csv; charset=utf-8',
        filename: `${type}-readiness.csv`,
        open: () => Readable.from(lines.map((l) => Buffer.from(l))),
      },
    };
  });
}
