import { DomainError, newId, type PlatformRepos } from '@fundi/domain';
import { LogbookEntry, supervisorAddress, type LogbookEntrySnapshot, type LogbookRepos } from '@fundi/domain/logbooks';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { LOGBOOK_EVENTS, type LogbookDeps } from './logbook-deps.js';
import { eventData } from './logbook-event-data.js';
import { logbookView, type LogbookEntryView } from './logbook-view.js';

/** The most entries one submission takes (a month of days, with room). */
export const MAX_SUBMITTED_ENTRIES = 50;

/** One sign-off request: the entries of one submission that go to one supervisor, under one link. */
export interface LogbookSubmissionView {
  id: string;
  supervisorName: string;
  entryIds: string[];
}

export interface LogbookSubmitted {
  data: LogbookEntryView[];
  submissions: LogbookSubmissionView[];
}

function checkedIds(ids: unknown): string[] {
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_SUBMITTED_ENTRIES)
    throw DomainError.invalid('ids', `must name 1 to ${MAX_SUBMITTED_ENTRIES} logbook entries`);
  if (!ids.every((x): x is string => typeof x === 'string' && x.length > 0 && x.length <= 100))
    throw DomainError.invalid('ids', 'must be logbook entry ids');
  if (new Set(ids).size !== ids.length) throw DomainError.invalid('ids', 'names an entry twice');
  return ids;
}

/**
 * Submits entries of one learner together (docs/api.md, "Logbooks"), all or none: entries with the same supervisor
 * address share one sign-off request (`lbs_...`) and so one link; `logbook.submitted` is still written per entry.
 */
export async function submitEntries(
  d: LogbookDeps,
  tx: LogbookRepos & Pick<PlatformRepos, 'audit' | 'outbox'>,
  actor: Actor,
  input: unknown,
): Promise<LogbookSubmitted> {
  const ids = checkedIds(input);
  const found = await tx.logbookEntries.findByIds(actor.tenantId, ids);
  const missing = ids.filter((id) => !found.some((e) => e.id === id));
  if (missing.length)
    throw DomainError.invalid('ids', `unknown logbook entry: ${missing.join(', ')}`, 'unknown_logbook_entry');
  if (new Set(found.map((e) => e.learnerId)).size > 1)
    throw DomainError.invalid('ids', "must all be one learner's entries: a submission is one learner's logbook");
  const now = d.clock.now();
  const requests = new Map<string, { id: string; entries: LogbookEntrySnapshot[] }>();
  const out: LogbookEntrySnapshot[] = [];
  // In the order asked, so the answer lists the entries as the caller named them.
  for (const id of ids) {
    const cur = found.find((e) => e.id === id)!;
    const to = supervisorAddress(cur);
    const request = requests.get(to) ?? { id: newId('lbs', now.getTime()), entries: [] };
    requests.set(to, request);
    const next = LogbookEntry.submit(cur, now, request.id);
    request.entries.push(next);
    out.push(next);
  }
  for (const e of out) {
    await tx.logbookEntries.update(e);
    await recordChange(tx, actor, now, {
      action: 'logbook.submitted',
      resourceType: 'logbook_entry',
      resourceId: e.id,
      learnerId: e.learnerId,
      details: { submissionId: e.submissionId },
      events: [{ type: LOGBOOK_EVENTS.submitted, data: eventData(e), subjectId: e.learnerId }],
    });
  }
  return {
    data: out.map(logbookView),
    submissions: [...requests.values()].map((r) => ({
      id: r.id,
      supervisorName: r.entries[0]!.supervisor.name,
      entryIds: r.entries.map((e) => e.id),
    })),
  };
}

/** Which of a learner's unsigned entries a portal button sends: one module's, or one week's (dates inclusive). */
export interface OpenEntriesFilter {
  moduleCode?: string;
  from?: string;
  to?: string;
}

const unsigned = (e: LogbookEntrySnapshot) => e.status === 'draft' || e.status === 'queried';

/**
 * Groups of at most `MAX_SUBMITTED_ENTRIES` entries, each of one supervisor address, in date order: a supervisor
 * with 51 entries gets two sign-off requests (the first 50 days, then the rest), never more than needed.
 */
export function submissionGroups(entries: readonly LogbookEntrySnapshot[]): LogbookEntrySnapshot[][] {
  const bySupervisor = new Map<string, LogbookEntrySnapshot[]>();
  for (const e of entries) {
    const to = supervisorAddress(e);
    bySupervisor.set(to, [...(bySupervisor.get(to) ?? []), e]);
  }
  const groups: LogbookEntrySnapshot[][] = [];
  for (const mine of bySupervisor.values()) {
    const ordered = [...mine].sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
    for (let i = 0; i < ordered.length; i += MAX_SUBMITTED_ENTRIES)
      groups.push(ordered.slice(i, i + MAX_SUBMITTED_ENTRIES));
  }
  return groups;
}

/**
 * Every unsigned entry of the learner that the filter keeps, whatever their number, sent in one transaction (all or
 * none): the learner portal's buttons (docs/api.md, "Logbooks"). `submitEntries` per group of `submissionGroups`,
 * so each request and link stays within the API's 50; the answer joins the groups' answers.
 */
export async function submitOpenEntries(
  d: LogbookDeps,
  tx: LogbookRepos & Pick<PlatformRepos, 'audit' | 'outbox'>,
  actor: Actor,
  learnerId: string,
  f: OpenEntriesFilter,
): Promise<LogbookSubmitted> {
  const open = (await tx.logbookEntries.listForLearner(actor.tenantId, learnerId)).filter(
    (e) =>
      unsigned(e) &&
      (f.moduleCode === undefined || e.moduleCode === f.moduleCode) &&
      (f.from === undefined || e.date >= f.from) &&
      (f.to === undefined || e.date <= f.to),
  );
  if (open.length === 0) throw DomainError.notFound('logbook entry', f.moduleCode ?? f.from ?? learnerId);
  const out: LogbookSubmitted = { data: [], submissions: [] };
  for (const group of submissionGroups(open)) {
    const r = await submitEntries(
      d,
      tx,
      actor,
      group.map((e) => e.id),
    );
    out.data.push(...r.data);
    out.submissions.push(...r.submissions);
  }
  return out;
}
