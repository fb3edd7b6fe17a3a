import type { LogbookEntrySnapshot } from '@fundi/domain/logbooks';

/** What the logbook events carry: the entry's facts, no personal text (the supervisor's name aside). */
export function eventData(e: LogbookEntrySnapshot): Record<string, unknown> {
  return {
    entryId: e.id,
    learnerId: e.learnerId,
    enrolmentId: e.enrolmentId,
    moduleCode: e.moduleCode,
    date: e.date,
    hours: e.hours,
    status: e.status,
    submittedAt: e.submittedAt,
    submissionId: e.submissionId,
    signedAt: e.signedAt,
    comment: e.signOff?.comment ?? null,
  };
}
