import type { LearnerSnapshot } from '@fundi/domain/learners';

/** Which of an import's ID numbers, emails and alternative IDs the live learners hold, each to its learner's id. */
export function takenValues(
  live: readonly LearnerSnapshot[],
  idNumbers: readonly string[],
  emails: readonly string[],
  alternates: readonly string[] = [],
) {
  const ids = new Set(idNumbers);
  const mails = new Set(emails.map((e) => e.toLowerCase()));
  const alts = new Set(alternates);
  const out = {
    idNumbers: new Map<string, string>(),
    emails: new Map<string, string>(),
    alternates: new Map<string, string>(),
  };
  for (const l of live) {
    const alt = l.alternateId ? `${l.alternateIdType}:${l.alternateId}` : null;
    if (alt && alts.has(alt)) out.alternates.set(alt, l.id);
    if (l.idNumber && ids.has(l.idNumber)) out.idNumbers.set(l.idNumber, l.id);
    const e = l.email?.toLowerCase();
    if (e && mails.has(e)) out.emails.set(e, l.id);
  }
  return out;
}
