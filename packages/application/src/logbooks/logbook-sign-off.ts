import { createHash } from 'node:crypto';
import { DomainError, LogbookEntry, logbookContent, type LogbookEntrySnapshot } from '@fundi/domain';
import { systemActor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { eventData } from './logbook-entries.js';
import { LOGBOOK_EVENTS, SIGN_OFF_PURPOSE, type LogbookDeps } from './logbook-deps.js';

const refused = () =>
  DomainError.forbidden(
    'This sign-off link is not valid: it was altered, has expired, or the entry was answered or changed since.',
    'sign_off_refused',
  );

/** What the supervisor's page shows: the entry exactly as it will be signed, and for whom. */
export interface SignOffRequest {
  entry: LogbookEntrySnapshot;
  learnerName: string;
  moduleName: string;
  /** SHA-256 of what is shown (`logbookContent`), recorded with the answer. */
  hash: string;
}

export const contentHash = (e: LogbookEntrySnapshot) => createHash('sha256').update(logbookContent(e)).digest('hex');

/**
 * The supervisor's sign-off by signed, expiring link, without an account (docs/api.md, "Logbooks"): the link names
 * one entry as submitted; it works while that submission waits for an answer and for 14 days at most.
 */
export class LogbookSignOff {
  constructor(private readonly d: LogbookDeps) {}

  async open(token: string): Promise<SignOffRequest> {
    const payload = this.d.signer.verify(token, SIGN_OFF_PURPOSE);
    const [tenantId, id, submittedAt, until] = payload?.split('|') ?? [];
    if (!tenantId || !id || !submittedAt || !(Number(until) > this.d.clock.now().getTime())) throw refused();
    const entry = await this.d.repos.logbookEntries.findById(tenantId, id);
    if (!entry || entry.status !== 'submitted' || entry.submittedAt !== submittedAt) throw refused();
    const [learner, enrolment] = await Promise.all([
      this.d.repos.learners.findById(tenantId, entry.learnerId),
      this.d.repos.enrolments.findById(tenantId, entry.enrolmentId),
    ]);
    if (!learner) throw refused();
    const programme = enrolment ? await this.d.repos.programmes.findById(tenantId, enrolment.programmeId) : null;
    const moduleName = programme?.modules.find((m) => m.code === entry.moduleCode)?.name ?? entry.moduleCode;
    return { entry, learnerName: `${learner.firstName} ${learner.lastName}`, moduleName, hash: contentHash(entry) };
  }

  /**
   * The supervisor confirms or queries (a comment required) what the page showed: `hash` must still be what the
   * entry hashes to. Signed entries are frozen; both answers are events (`logbook.signed`, `logbook.queried`).
   */
  async answer(
    token: string,
    a: { outcome: 'confirmed' | 'queried'; comment: string | null; hash: string; ip: string },
  ): Promise<LogbookEntrySnapshot> {
    const req = await this.open(token);
    if (a.hash !== req.hash) throw refused();
    const now = this.d.clock.now();
    const actor = systemActor(req.entry.tenantId);
    return this.d.uow.run(async (tx) => {
      const cur = await tx.logbookEntries.findById(req.entry.tenantId, req.entry.id);
      if (!cur || cur.status !== 'submitted' || contentHash(cur) !== a.hash) throw refused();
      const next = LogbookEntry.answer(cur, {
        outcome: a.outcome,
        by: cur.supervisor.name,
        at: now.toISOString(),
        ip: a.ip,
        hash: a.hash,
        comment: a.comment?.trim() ? a.comment.trim().slice(0, 2000) : null,
      });
      await tx.logbookEntries.update(next);
      const type = next.status === 'signed' ? LOGBOOK_EVENTS.signed : LOGBOOK_EVENTS.queried;
      await recordChange(tx, actor, now, {
        action: type,
        resourceType: 'logbook_entry',
        resourceId: next.id,
        learnerId: next.learnerId,
        details: { hash: a.hash },
        events: [{ type, data: eventData(next), subjectId: next.learnerId }],
      });
      return next;
    });
  }
}
