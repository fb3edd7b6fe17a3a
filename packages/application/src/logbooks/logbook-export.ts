import type { LearnerRepos, LearnerSnapshot } from '@fundi/domain/learners';
import type { LogbookEntrySnapshot, LogbookRepos } from '@fundi/domain/logbooks';
import { pages } from '../exports/export-reading.js';
import { csvExportType, type Column } from '../exports/export-type.js';
import { learnersOf, personColumns } from '../learners/learner-columns.js';

/** A logbook entry with its learner (null once erased). */
export interface LogbookRow {
  e: LogbookEntrySnapshot;
  l: LearnerSnapshot | null;
}

/** The full export's `logbook-entries.csv` (docs/api.md, "Logbooks"): each entry and its sign-off. */
export const LOGBOOK_COLUMNS: Record<string, Column<LogbookRow>> = {
  id: (r) => r.e.id,
  ...personColumns<LogbookRow>(),
  enrolment_id: (r) => r.e.enrolmentId,
  module: (r) => r.e.moduleCode,
  date: (r) => r.e.date,
  hours: (r) => r.e.hours,
  activity: (r) => r.e.activity,
  workplace: (r) => r.e.workplace,
  supervisor_name: (r) => r.e.supervisor.name,
  supervisor_email: (r) => r.e.supervisor.email,
  supervisor_mobile: (r) => r.e.supervisor.mobile,
  status: (r) => r.e.status,
  submitted_at: (r) => r.e.submittedAt,
  submission_id: (r) => r.e.submissionId,
  signed_at: (r) => r.e.signedAt,
  sign_off_outcome: (r) => r.e.signOff?.outcome ?? null,
  sign_off_by: (r) => r.e.signOff?.by ?? null,
  sign_off_at: (r) => r.e.signOff?.at ?? null,
  sign_off_ip: (r) => r.e.signOff?.ip ?? null,
  sign_off_hash: (r) => r.e.signOff?.hash ?? null,
  sign_off_comment: (r) => r.e.signOff?.comment ?? null,
};

/** Every logbook entry of the tenant (the full export), with its learner. */
export async function* logbookRows(
  r: Pick<LogbookRepos, 'logbookEntries'> & Pick<LearnerRepos, 'learners'>,
  tenantId: string,
): AsyncGenerator<LogbookRow[]> {
  for await (const batch of pages((p) => r.logbookEntries.list(tenantId, {}, p))) {
    const learners = await learnersOf(
      r,
      tenantId,
      batch.map((e) => e.learnerId),
    );
    yield batch.map((e) => ({ e, l: learners.get(e.learnerId) ?? null }));
  }
}

/** The logbook entries: a file of the full export only, every entry whatever its filters. */
export const logbookExport = csvExportType({
  name: 'logbook-entries',
  label: 'Logbook entries (CSV)',
  inFull: 'logbook-entries.csv',
  fullOnly: true,
  columns: LOGBOOK_COLUMNS,
  rows: (r: Pick<LogbookRepos, 'logbookEntries'> & Pick<LearnerRepos, 'learners'>, tenantId) =>
    logbookRows(r, tenantId),
});
